import type { Rubric } from "../../config/types";
import { plural } from "../results/format-score";
import { describeCategoryRubric } from "../review/review-prompt";
import { longestPath } from "./estimate-requests";

// What `eval --explain` says a cell's rubric is: its kind, source, threshold
// and options, then one line per criterion with its flags.

/** A long text as the plan shows it: its start and its length (the plan repeats it per cell). */
function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export function describeRubric(rubric: Rubric): string[] {
  const source =
    rubric.source.type === "inline" ? "inline" : `${rubric.source.type} ${rubric.source.name}`;
  const head = `${rubric.kind} rubric (${source}), threshold ${rubric.threshold.toFixed(2)}${rubric.strict ? ", strict" : ""}`;
  if (rubric.kind === "freeform") return [head, `  "${clip(rubric.text)}"`];
  if (rubric.kind === "tree")
    return [head, `  ${longestPath(rubric.tree).length} questions on the longest path`];
  if (rubric.kind === "categories") return describeCategoryRubric(rubric.rubricSet, source);
  if (rubric.kind === "pairwise") {
    const { comparison: c } = rubric;
    const asks =
      c.question !== undefined
        ? `"${c.question}"`
        : `criteria: ${c.criteria.map((x) => x.name).join(", ")}`;
    return [
      `pairwise comparison (${source}): ${c.labels.a} vs ${c.labels.b}, ${c.items.length} pairs x 2 orders, ${asks}${c.expect ? `, expect ${c.expect}` : ""}`,
    ];
  }
  const options = [
    rubric.aggregation === "min" ? "aggregation min" : "weighted average",
    rubric.requireEvidence ? "evidence required" : "",
  ].filter(Boolean);
  return [
    `${head}, ${options.join(", ")}`,
    ...rubric.criteria.map((c) => {
      const flags = [
        `weight ${c.weight}`,
        c.required ? "required" : "",
        c.guard ? "guard" : "",
        c.threshold !== undefined ? `threshold ${c.threshold.toFixed(2)}` : "",
        c.when
          ? `when ${c.when.contains !== undefined ? `contains ${JSON.stringify(clip(c.when.contains))}` : `regex /${clip(c.when.regex ?? "")}/`}`
          : "",
        c.examples.length ? plural(c.examples.length, "anchor") : "",
      ].filter(Boolean);
      return `  - ${c.name} (${flags.join(", ")})`;
    }),
  ];
}
