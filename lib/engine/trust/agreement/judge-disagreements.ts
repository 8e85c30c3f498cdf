import type { EvalResult } from "../../results/report";
import type { MeasurementLevel } from "../../../stats/registry";
import { agreementItems, type RatedVerdict } from "./agreement-units";

// The places where the judges of an eval disagree, each with every judge's
// rating and reasoning, for a person to read side by side. One documented
// rule: on a categorical scale (pass/fail, pass/partial/fail, likert, letter)
// the judges disagree when their ratings are not all the same; on unit scores,
// where exact equality is too strict, when their pass/fail against the
// criterion's threshold splits or their scores spread by DISAGREEMENT_SPREAD
// or more.

export const DISAGREEMENT_SPREAD = 0.25;

export interface JudgeDisagreement {
  eval: string;
  /** The result (cell) it happened in: its id (the stored result key) and display name. */
  resultId: string;
  resultName: string;
  item: string;
  level: MeasurementLevel;
  /** Highest minus lowest rating. */
  spread: number;
  /** Whether the judges' own pass/fail split. */
  splitDecision: boolean;
  verdicts: RatedVerdict[];
}

export function judgeDisagreements(results: EvalResult[]): JudgeDisagreement[] {
  return agreementItems(results).flatMap(({ level, items }) =>
    items.flatMap((item) =>
      item.units.flatMap((unit) => {
        if (unit.verdicts.length < 2) return [];
        const ratings = unit.verdicts.map((v) => v.rating);
        const spread = Math.max(...ratings) - Math.min(...ratings);
        const splitDecision = new Set(unit.verdicts.map((v) => v.passed)).size > 1;
        const disagree =
          level === "interval" ? splitDecision || spread >= DISAGREEMENT_SPREAD - 1e-9 : spread > 0;
        if (!disagree) return [];
        return [
          {
            eval: item.eval,
            resultId: unit.resultId,
            resultName: unit.resultName,
            item: item.item,
            level,
            spread,
            splitDecision,
            verdicts: unit.verdicts,
          },
        ];
      }),
    ),
  );
}
