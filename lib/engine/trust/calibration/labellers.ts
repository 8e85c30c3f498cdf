import type { CalibrationResult, CriterionCalibration } from "../../results/trust";

// Who gave a calibration's labels. The Go package's Annotation says
// "AnnotatorType indicates human vs automated (e.g. human, llm, rule)": only
// `human` (or no type: an Annotation is "a human-provided label") is a person.
// Anchors and category examples are written by the suite's author. Labels from
// an llm or a rule are calibrated apart, each type in its own row, and named
// as what they are: the judge agreeing with another model is not the judge
// agreeing with people.

/** The labeller kind of an annotation: undefined for a person, else its annotator_type (lowercased). */
export function labellerOf(annotatorType: string | undefined): string | undefined {
  const kind = annotatorType?.trim().toLowerCase();
  return kind && kind !== "human" ? kind : undefined;
}

type Row = Pick<CriterionCalibration, "eval" | "item" | "labelledBy">;

/** Whether two calibration rows (or a row and an overMaxError entry) are the same one. */
export function sameRow(a: Row, b: Row): boolean {
  return a.eval === b.eval && a.item === b.item && a.labelledBy === b.labelledBy;
}

/** ", labels by llm annotators, not people" for a row not labelled by people; "" otherwise. */
export function labelledByNote(row: Row): string {
  return row.labelledBy ? `, labels by ${row.labelledBy} annotators, not people` : "";
}

/** "6 labelled items (3 by people, 2 by llm, 1 by rule annotators)", or "4 labelled items" when people gave them all. */
export function labelledItemsText(result: Pick<CalibrationResult, "criteria" | "probes">): string {
  const counts = new Map<string, number>();
  for (const c of result.criteria)
    counts.set(c.labelledBy ?? "", (counts.get(c.labelledBy ?? "") ?? 0) + c.items.length);
  const automated = [...counts].filter(([kind]) => kind !== "");
  if (automated.length === 0) return `${result.probes} labelled items`;
  const parts = [
    `${counts.get("") ?? 0} by people`,
    ...automated.map(([kind, n]) => `${n} by ${kind}`),
  ];
  return `${result.probes} labelled items (${parts.join(", ")} annotators)`;
}

/** The rows whose MAE is above maxError. */
export function overMaxErrorOf(
  criteria: CriterionCalibration[],
  maxError: number | undefined,
): CalibrationResult["overMaxError"] {
  if (maxError === undefined) return [];
  return criteria
    .filter((c) => c.mae !== null && c.mae > maxError + 1e-12)
    .map((c) => ({
      eval: c.eval,
      item: c.item,
      ...(c.labelledBy ? { labelledBy: c.labelledBy } : {}),
      mae: c.mae!,
    }));
}
