import { csvHeader, csvResultLine } from "./csv-rows";
import { renderWhole, type ResultWriter } from "./result-stream";
import type { Reporter } from "./reporter";

// One row per result, for a spreadsheet or a data frame: the eval, its matrix
// cell, status, score and threshold, decision, cost, and one column per
// criterion with its score (empty where a result has no such criterion).

/** The header from the suite's criteria, then a row per result as it arrives (issue 20). */
export function csvWriter(): ResultWriter {
  let criteria: readonly string[] = [];
  return {
    start: (run) => {
      criteria = run.criteria;
      return csvHeader(criteria);
    },
    result: (result) => csvResultLine(result, criteria),
    end: () => ({ after: "" }),
  };
}

export const csvReporter: Reporter = {
  name: "csv",
  extension: "csv",
  description:
    "text/csv: one row per result, a column per criterion score, formula-like cells neutralised",
  render: (report) => renderWhole(csvWriter(), report),
  stream: csvWriter,
};
