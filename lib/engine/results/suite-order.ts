import type { EvalResult } from "./report";

/**
 * Results in the order their evals are written in the suite (by the eval's
 * line and column), a matrix's or dataset's cells as planned (by cellIndex;
 * a result stored before it was recorded, by prompt position), then by name with
 * numbers read as numbers ("#2" before "#10"). Stored results come back in the
 * order they finished, which changes from run to run; a view that lists them
 * must not.
 */
export function inSuiteOrder<
  T extends Pick<EvalResult, "name" | "location" | "cell" | "cellIndex">,
>(results: readonly T[]): T[] {
  const line = (r: T) => r.location?.line ?? Number.MAX_SAFE_INTEGER;
  return [...results].sort(
    (a, b) =>
      line(a) - line(b) ||
      (a.location?.column ?? 0) - (b.location?.column ?? 0) ||
      placeOf(a) - placeOf(b) ||
      a.name.localeCompare(b.name, "en", { numeric: true }),
  );
}

/** A cell's place among its eval's cells: as planned, or (stored before that was recorded) its prompt's position. */
export function placeOf(result: Pick<EvalResult, "cell" | "cellIndex">): number {
  return result.cellIndex ?? result.cell?.promptIndex ?? 0;
}
