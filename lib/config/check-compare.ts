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

/** The other evals, as the cells form of compare: needs them. */
interface SourceShape {
  name: string;
  response?: string;
  server?: string;
  document?: unknown;
  compare?: unknown;
  matrix?: { agents?: string[]; prompts?: string[] };
}

/** `compare: { eval, a, b }`: the source eval exists and has the cells each side names, and the sides differ. */
function checkCellComparison(input: {
  compare: CompareInput;
  evalName: string;
  evals: SourceShape[];
  cpath: DataPath;
  error: Report;
}): void {
  const { compare, evals, cpath, error } = input;
  const name = compare.eval!;
  const source = evals.find((e) => e.name === name);
  if (!source) {
    error(
      [...cpath, "eval"],
      `unknown eval "${name}"; compare: { eval } names another eval of this suite, whose matrix cells are compared`,
    );
    return;
  }
  if (name === input.evalName)
    return error(
      [...cpath, "eval"],
      "an eval cannot compare its own cells: name the eval that has the matrix",
    );
  if (source.compare !== undefined)
    return error(
      [...cpath, "eval"],
      `eval "${name}" is itself a comparison; name an eval that grades candidates`,
    );
  if (source.document !== undefined)
    return error(
      [...cpath, "eval"],
      `eval "${name}" reviews a document; it has no cells to compare`,
    );
  for (const side of ["a", "b"] as const) {
    const selector = compare[side];
    const spath = [...cpath, side];
    if (!selector) {
      error(
        cpath,
        `compare: { eval } needs both a: and b:, each naming its cells by agent or prompt`,
      );
      continue;
    }
    if (selector.model !== undefined)
      error(
        [...spath, "model"],
        "the judge model does not change what is graded (cells that differ only in it " +
          "grade the same candidate); pick cells by agent or prompt",
      );
    if (selector.agent === undefined && selector.prompt === undefined)
      error(spath, "name this side's cells by agent or prompt");
    const agents = source.matrix?.agents;
    if (selector.agent !== undefined && !agents?.includes(selector.agent)) {
      error(
        [...spath, "agent"],
        agents
          ? `eval "${name}" has no agent "${selector.agent}"; its matrix.agents: ${agents.join(", ")}`
          : `eval "${name}" has no matrix.agents to pick from`,
      );
    }
    const prompts = source.matrix?.prompts;
    if (selector.prompt !== undefined && !(prompts && selector.prompt <= prompts.length)) {
      error(
        [...spath, "prompt"],
        prompts
          ? `eval "${name}" has ${prompts.length} prompt${prompts.length === 1 ? "" : "s"} in matrix.prompts; prompt is a position from 1 to ${prompts.length}`
          : `eval "${name}" has no matrix.prompts to pick from`,
      );
    }
  }
  const { a, b } = compare;
  const names = (s: CompareInput["a"]) =>
    s !== undefined && (s.agent !== undefined || s.prompt !== undefined);
  if (
    a &&
    b &&
    names(a) &&
    names(b) &&
    (a.agent ?? b.agent) === (b.agent ?? a.agent) &&
    (a.prompt ?? b.prompt) === (b.prompt ?? a.prompt)
  ) {
    error(
      cpath,
      "a and b pick the same cells: they must differ in agent or prompt (what one side " +
        "leaves out, it takes from the other)",
    );
  }
}

/** `rubric` is the eval's rubric after a ref is followed (a string or a structured rubric object). */
export function checkCompareEval(input: {
  evalInput: EvalShape & { name: string };
  evals: SourceShape[];
  rubric: unknown;
  path: DataPath;
  error: Report;
}): void {
  const { evalInput, rubric, path, error } = input;
  const compare = evalInput.compare;
  if (!compare) return;
  const cpath = [...path, "compare"];
  for (const field of ["response", "document", "server", "matrix"] as const) {
    if (evalInput[field] !== undefined)
      error(
        [...path, field],
        `a pairwise eval compares the outputs under compare:; it takes no ${field}`,
      );
  }
  const single =
    compare.output_a !== undefined || compare.output_b !== undefined || compare.input !== undefined;
  const cells = compare.eval !== undefined || compare.a !== undefined || compare.b !== undefined;
  if (cells && (single || compare.items))
    error(
      cpath,
      "give either eval with a and b (two matrix cells), or the outputs themselves (input " +
        "/ output_a / output_b, or items), not both",
    );
  else if (cells && compare.eval === undefined)
    error(cpath, "a and b pick cells of an eval: add eval: with its name");
  else if (cells)
    checkCellComparison({ compare, evalName: evalInput.name, evals: input.evals, cpath, error });
  if (single && compare.items)
    error(cpath, "give either input / output_a / output_b, or items: [...], not both");
  if (!single && !compare.items && !cells)
    error(
      cpath,
      "compare needs output_a and output_b (or items: [...], or eval with a and b to compare two matrix cells)",
    );
  if (single && (compare.output_a === undefined || compare.output_b === undefined))
    error(cpath, "a comparison needs both output_a and output_b");
  const ids = (compare.items ?? [])
    .map((item) => item.id)
    .filter((id): id is string => id !== undefined);
  if (new Set(ids).size !== ids.length) error([...cpath, "items"], "item ids must be unique");
  if (typeof rubric === "object" && rubric !== null) {
    const r = rubric as {
      tree?: unknown;
      categories?: unknown;
      criteria?: { when?: unknown; guard?: boolean }[];
    };
    if (r.tree !== undefined)
      error(
        [...path, "rubric"],
        "a pairwise eval asks which output is better: use a free-form question or criteria, not a tree",
      );
    if (r.categories !== undefined)
      error(
        [...path, "rubric"],
        "a pairwise eval asks which output is better: use a free-form question or criteria, not categories",
      );
    r.criteria?.forEach((c, i) => {
      if (c.when !== undefined)
        error(
          [...path, "rubric", "criteria", i, "when"],
          "when: does not apply to a comparison: both outputs are judged on every criterion",
        );
      if (c.guard)
        error(
          [...path, "rubric", "criteria", i, "guard"],
          "guard does not apply to a comparison: name the better output on each criterion instead",
        );
    });
  }
}
