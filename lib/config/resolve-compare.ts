import type { CompareInput } from "./compare-schema";
import type { CellComparison, CellSelector, PairwiseConfig } from "./pairwise-types";
import type { Rubric } from "./types";

// A `compare:` block and its rubric, resolved: items numbered, labels
// defaulted to A and B, the rubric as a question or as criteria.

/**
 * A side's cells as a label: `agent=claude-haiku-4-5, prompt=#2`, what it names and what it takes
 * from the other side.
 */
export function describeSelector(own: CellSelector, other: CellSelector): string {
  const agent = own.agent ?? other.agent;
  const prompt = own.prompt ?? other.prompt;
  return [
    agent !== undefined ? `agent=${agent}` : "",
    prompt !== undefined ? `prompt=#${prompt}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

function resolveCellComparison(compare: CompareInput): CellComparison {
  const side = (s: CompareInput["a"]): CellSelector => ({
    ...(s?.agent !== undefined ? { agent: s.agent } : {}),
    ...(s?.prompt !== undefined ? { prompt: s.prompt } : {}),
  });
  return { eval: compare.eval!, a: side(compare.a), b: side(compare.b) };
}

export function resolveCompare(input: {
  compare: CompareInput;
  question?: string;
  criteria: { name: string; description: string }[];
}): PairwiseConfig {
  const { compare } = input;
  if (compare.eval !== undefined) {
    const cells = resolveCellComparison(compare);
    return {
      ...(input.question !== undefined ? { question: input.question } : {}),
      criteria: input.criteria,
      items: [],
      cells,
      labels: {
        a: compare.labels?.a ?? describeSelector(cells.a, cells.b),
        b: compare.labels?.b ?? describeSelector(cells.b, cells.a),
      },
      ...(compare.expect ? { expect: compare.expect } : {}),
    };
  }
  const raw = compare.items ?? [
    { input: compare.input, output_a: compare.output_a!, output_b: compare.output_b! },
  ];
  return {
    ...(input.question !== undefined ? { question: input.question } : {}),
    criteria: input.criteria,
    items: raw.map((item, i) => ({
      id: ("id" in item && item.id) || String(i + 1),
      ...(item.input !== undefined ? { input: item.input } : {}),
      outputA: item.output_a,
      outputB: item.output_b,
    })),
    labels: { a: compare.labels?.a ?? "A", b: compare.labels?.b ?? "B" },
    ...(compare.expect ? { expect: compare.expect } : {}),
  };
}

/** What the report shows as the candidate of a pairwise eval. */
export function describeComparison(config: PairwiseConfig): string {
  const n = config.items.length;
  if (config.cells) {
    const pairs = n > 0 ? `${n} pair${n === 1 ? "" : "s"}` : "pairs";
    return `pairwise: cells ${config.labels.a} (A) vs ${config.labels.b} (B) of eval "${config.cells.eval}", ${pairs}, each judged in both orders`;
  }
  return `pairwise: ${config.labels.a} (A) vs ${config.labels.b} (B), ${n} pair${n === 1 ? "" : "s"}, each judged in both orders`;
}

/**
 * A pairwise eval's rubric: the resolved free-form or criteria rubric becomes the comparison's
 * question or criteria.
 */
export function withComparison(rubric: Rubric, compare: CompareInput | undefined): Rubric {
  if (!compare) return rubric;
  const criteria =
    rubric.kind === "criteria"
      ? rubric.criteria.map((c) => ({ name: c.name, description: c.description }))
      : [];
  const question = rubric.kind === "freeform" ? rubric.text : undefined;
  const { threshold, strict, scale, source } = rubric;
  return {
    kind: "pairwise",
    threshold,
    strict,
    scale,
    source,
    comparison: resolveCompare({
      compare,
      ...(question !== undefined ? { question } : {}),
      criteria,
    }),
  };
}

export function describeCompareInput(compare: CompareInput): string {
  return describeComparison(resolveCompare({ compare, criteria: [] }));
}
