import type { EvalResult } from "../../results/report";
import type { AgreementValue, JudgeAgreement } from "../../results/trust";
import { AGREEMENT_STATISTICS, type MeasurementLevel } from "../../../stats/registry";
import { bootstrapInterval } from "../../../stats/bootstrap";
import { resampledAlpha } from "../../../stats/krippendorff-alpha";
import type { Ratings, StatResult } from "../../../stats/result";
import { agreementItems, type AgreementUnit } from "./agreement-units";

// How far the judges of an eval agree with each other, for every criterion or
// category graded by several jurors or panel models. The units are the eval's
// graded cells (matrix cells, repeats); the raters are the judges. Each
// criterion is one row, and "(all criteria)" pools every criterion of every
// cell, which is what a single-cell eval can still say something about.
// The level of measurement follows the scale a person reads: interval for unit
// scores, ordinal for likert and letter grades, nominal for pass / fail and
// for pass / partial / fail categories (Krippendorff 2011).

const POOLED = "(all criteria)";

const asValue = (result: StatResult): AgreementValue =>
  result.ok ? { value: result.value } : { value: null, note: result.reason };

/**
 * Alpha and kappa on one item: the formulas give a number (0 whenever the
 * judges differ at all), but chance agreement is estimated from the spread of
 * ratings across items, and one item has none to speak of. So it is n/a, with
 * the reason, as for the other undefined cases; exact agreement still holds.
 */
const ONE_ITEM = "one item only: agreement beyond chance needs at least two items to compare";
const beyondChance = (result: StatResult, units: number): AgreementValue =>
  result.ok && units < 2 ? { value: null, note: ONE_ITEM } : asValue(result);

type Unit = Map<string, number>;

function measure(input: {
  eval: string;
  item: string;
  level: MeasurementLevel;
  units: Unit[];
}): JudgeAgreement | undefined {
  const units = input.units.filter((u) => u.size >= 2);
  if (units.length === 0) return undefined;
  const judges = [...new Set(units.flatMap((u) => [...u.keys()]))].sort();
  const ratings: Ratings<number> = units.map((u) => judges.map((j) => u.get(j) ?? null));
  const compute = (name: keyof typeof AGREEMENT_STATISTICS) =>
    AGREEMENT_STATISTICS[name].compute({ ratings, level: input.level });
  const alpha = beyondChance(compute("krippendorff_alpha"), units.length);
  const ci =
    alpha.value === null
      ? undefined
      : bootstrapInterval({
          units: ratings,
          statistic: resampledAlpha({ ratings, level: input.level }),
        });
  return {
    eval: input.eval,
    item: input.item,
    level: input.level,
    judges,
    units: units.length,
    exactAgreement: asValue(compute("exact_agreement")),
    krippendorffAlpha: { ...alpha, ...(ci ? { ci95: { low: ci.low, high: ci.high } } : {}) },
    ...(input.level !== "interval"
      ? {
          fleissKappa: beyondChance(
            AGREEMENT_STATISTICS.fleiss_kappa.compute({ ratings, level: "nominal" }),
            units.length,
          ),
        }
      : {}),
  };
}

const unitOf = (unit: AgreementUnit): Unit =>
  new Map(unit.verdicts.map((v) => [v.judge, v.rating]));

export function judgeAgreement(results: EvalResult[]): JudgeAgreement[] {
  return agreementItems(results).flatMap(({ eval: name, level, items }) => {
    const out: JudgeAgreement[] = [];
    for (const item of items) {
      const one = measure({ eval: name, item: item.item, level, units: item.units.map(unitOf) });
      if (one) out.push(one);
    }
    if (items.length > 1) {
      const all = measure({
        eval: name,
        item: POOLED,
        level,
        units: items.flatMap((i) => i.units.map(unitOf)),
      });
      if (all) out.push(all);
    }
    return out;
  });
}
