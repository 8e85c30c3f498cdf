import type { EvalResult } from "../engine/results/report";
import { placeOf } from "../engine/results/suite-order";

// A result's place in the suite's order as one text a database index sorts: the order of the
// engine's `inSuiteOrder` (the eval's line and column, the cell's place as planned, then the name
// with numbers read as numbers, "#2" before "#10"), so that an export or `report RUN_ID` reads a run
// of a million results in keyset pages by (suite_order, id) instead of every key at once. The
// migration that added the column keys older rows the same way, in SQL.

const pad = (n: number) => String(Math.max(0, Math.floor(n))).padStart(10, "0");

/** Each run of digits as its length (3 digits) and its value without leading zeros: numbers compare as numbers. */
function naturalName(name: string): string {
  return name.toLowerCase().replace(/[0-9]+/g, (digits) => {
    const value = digits.replace(/^0+(?=[0-9])/, "");
    return `${String(value.length).padStart(3, "0")}${value}`;
  });
}

export function suiteOrderKey(
  result: Pick<EvalResult, "name" | "location" | "cell" | "cellIndex">,
): string {
  return [
    pad(result.location?.line ?? 9_999_999_999),
    pad(result.location?.column ?? 0),
    pad(placeOf(result)),
    naturalName(result.name),
  ].join(".");
}
