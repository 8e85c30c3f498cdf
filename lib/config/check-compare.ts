import type { CompareInput } from "./compare-schema";
import type { DataPath } from "./yaml-locator";

// The rules of a pairwise eval that zod's shape cannot say.

type Report = (path: DataPath, message: string) => void;

interface EvalShape {
  compare?: CompareInput;
  response?: string;
  document?: unknown;
  server?: string;
  matrix?: unknown;
}

/** `rubric` is the eval's rubric after a ref is followed (a string or a structured rubric object). */
export function checkCompareEval(input: { evalInput: EvalShape; rubric: unknown; path: DataPath; error: Report }): void {
  const { evalInput, rubric, path, error } = input;
  const compare = evalInput.compare;
  if (!compare) return;
  const cpath = [...path, "compare"];
  for (const field of ["response", "document", "server", "matrix"] as const) {
    if (evalInput[field] !== undefined) error([...path, field], `a pairwise eval compares the outputs under compare:; it takes no ${field}`);
  }
  const single = compare.output_a !== undefined || compare.output_b !== undefined || compare.input !== undefined;
  if (single && compare.items) error(cpath, "give either input / output_a / output_b, or items: [...], not both");
  if (!single && !compare.items) error(cpath, "compare needs output_a and output_b (or items: [...])");
  if (single && (compare.output_a === undefined || compare.output_b === undefined)) error(cpath, "a comparison needs both output_a and output_b");
  const ids = (compare.items ?? []).map((item) => item.id).filter((id): id is string => id !== undefined);
  if (new Set(ids).size !== ids.length) error([...cpath, "items"], "item ids must be unique");
  if (typeof rubric === "object" && rubric !== null) {
    const r = rubric as { tree?: unknown; categories?: unknown; criteria?: { when?: unknown; guard?: boolean }[] };
    if (r.tree !== undefined) error([...path, "rubric"], "a pairwise eval asks which output is better: use a free-form question or criteria, not a tree");
    if (r.categories !== undefined) error([...path, "rubric"], "a pairwise eval asks which output is better: use a free-form question or criteria, not categories");
    r.criteria?.forEach((c, i) => {
      if (c.when !== undefined) error([...path, "rubric", "criteria", i, "when"], "when: does not apply to a comparison: both outputs are judged on every criterion");
      if (c.guard) error([...path, "rubric", "criteria", i, "guard"], "guard does not apply to a comparison: name the better output on each criterion instead");
    });
  }
}
