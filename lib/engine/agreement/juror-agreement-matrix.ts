import type { EvalResult } from "../results/report";
import type { MeasurementLevel } from "../../stats/registry";
import { pairwiseAgreement, type PairAgreement } from "../../stats/pairwise-agreement";
import { agreementItems } from "./agreement-units";

// The juror × juror matrix of the agreement view: per eval with several
// judges, each two judges compared over every rating both gave (each
// criterion of each graded cell is one unit), so a judge that keeps
// disagreeing with the others stands out.

export interface JurorAgreementMatrix {
  eval: string;
  level: MeasurementLevel;
  judges: string[];
  /** cells[i][j]: judges[i] against judges[j]. */
  cells: PairAgreement[][];
}

export function jurorAgreementMatrices(results: EvalResult[]): JurorAgreementMatrix[] {
  return agreementItems(results).flatMap(({ eval: name, level, items }) => {
    const units = items.flatMap((i) => i.units);
    const judges = [...new Set(units.flatMap((u) => u.verdicts.map((v) => v.judge)))].sort();
    if (judges.length < 2) return [];
    const ratings = units.map((u) => judges.map((j) => u.verdicts.find((v) => v.judge === j)?.rating ?? null));
    return [{ eval: name, level, judges, cells: pairwiseAgreement(ratings) }];
  });
}
