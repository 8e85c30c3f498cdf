import type { Report } from "../engine/results/report";
import { criterionColumns, csvHeader, csvResultLine } from "./csv-rows";
import type { Reporter } from "./reporter";

// One row per result, for a spreadsheet or a data frame: the eval, its matrix
// cell, status, score and threshold, decision, cost, and one column per
// criterion with its score (empty where a result has no such criterion).

function renderCsv(report: Report): string {
  const criteria = criterionColumns(report.results);
  return (
    csvHeader(criteria) + report.results.map((result) => csvResultLine(result, criteria)).join("")
  );
}

export const csvReporter: Reporter = {
  name: "csv",
  extension: "csv",
  description:
    "text/csv: one row per result, a column per criterion score, formula-like cells neutralised",
  render: renderCsv,
};
