import type { EvalResult } from "../../results/report";
import type { MeasurementLevel } from "../../../stats/registry";
import { pairwiseAgreement, type PairAgreement } from "../../../stats/pairwise-agreement";
import { agreementItems } from "./agreement-units";

// The juror × juror matrix of the agreement view: per eval with several
// judges, each two judges compared over every rating both gave (each
// criterion of each graded candidate is one unit; matrix cells that differ
// only by judge model are one candidate), so a judge that keeps disagreeing
// with the others stands out.

export interface JurorAgreementMatrix {
  eval: string;
  level: MeasurementLevel;
  judges: string[];
  /** Each judge's provider, where it was resolved (a judge model of a matrix or panel from anthropic, openai, a local server...). */
  providers: Record<string, string>;
  /** cells[i][j]: judges[i] against judges[j] (the diagonal is a judge against itself: not shown). */
  cells: PairAgreement[][];
}

export function jurorAgreementMatrices(results: EvalResult[]): JurorAgreementMatrix[] {
  return agreementItems(results).flatMap(({ eval: name, level, items }) => {
    const units = items.flatMap((i) => i.units);
    const judges = [...new Set(units.flatMap((u) => u.verdicts.map((v) => v.judge)))].sort();
    if (judges.length < 2) return [];
    const ratings = units.map((u) =>
      judges.map((j) => u.verdicts.find((v) => v.judge === j)?.rating ?? null),
    );
    const providers = Object.fromEntries(
      units.flatMap((u) =>
        u.verdicts.flatMap((v) =>
          v.provider === undefined ? [] : [[v.judge, v.provider] as const],
        ),
      ),
    );
    return [{ eval: name, level, judges, providers, cells: pairwiseAgreement(ratings) }];
  });
}
