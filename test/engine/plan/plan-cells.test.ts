import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL, suiteFrom } from "../../support/run-yaml";
import { planCells, planSuite, planTotals } from "../../../lib/engine/plan/plan-suite";
import type { DatasetItem } from "../../../lib/config/dataset-schema";
import type { SuiteConfig } from "../../../lib/config/types";

// The lazy planner: planCells gives planSuite's cells in planSuite's order,
// one at a time, reading a streamed dataset only as far as it is pulled;
// planTotals counts them without holding them.

const SUITE = `
datasets:
  answers:
    items:
      - { id: a, input: "Q a?", expected_output: "Short." }
      - { id: b, input: "Q b?", expected_output: "A much longer answer, with SQL in it." }
      - { id: c, input: "Q c?", expected_output: "Another answer." }
evals:
  - name: graded
    candidates: { dataset: answers }
    judge: { jury: { size: 2 } }
    matrix: { models: [claude-haiku-4-5, claude-sonnet-4-6] }
    rubric:
      criteria:
        - { name: correct, description: "Correct." }
        - { name: no sql, description: "No SQL.", when: { contains: "SQL" } }
  - name: plain
    response: "hello"
    rubric: "Greets."
`;

const collect = async <T>(cells: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const cell of cells) out.push(cell);
  return out;
};

/** The suite with dataset "answers" streamed: items yielded one by one, each pull counted. */
function streamed(suite: SuiteConfig): { suite: SuiteConfig; pulled: () => number } {
  const dataset = suite.datasets!.answers!;
  const items: DatasetItem[] = dataset.items;
  let pulled = 0;
  return {
    suite: {
      ...suite,
      datasets: {
        answers: {
          ...dataset,
          items: [],
          stream: {
            count: items.length,
            async *read() {
              for (const item of items) {
                pulled += 1;
                yield item;
              }
            },
          },
        },
      },
    },
    pulled: () => pulled,
  };
}

describe("planCells and planTotals", () => {
  it("planCells gives planSuite's cells, in its order; planTotals its counts", async () => {
    const options = { suite: suiteFrom(SUITE), defaultModel: DEFAULT_MODEL };
    const array = planSuite(options);
    const lazy = await collect(planCells(options));
    expect(lazy).toEqual(array);
    expect(array.map((c) => c.name).slice(0, 3)).toEqual([
      "graded [item=a, model=claude-haiku-4-5]",
      "graded [item=a, model=claude-sonnet-4-6]",
      "graded [item=b, model=claude-haiku-4-5]",
    ]);
    // 3 items × 2 models, 2 jurors each; the `when:` criterion applies to item b only: (4 × 1) × 2 + (2 × 2) × 2 = 16, + 1 plain.
    expect(planTotals(options)).toEqual({ cells: 7, judgeCalls: 17 });
    expect(array.reduce((n, c) => n + c.judgeCalls, 0)).toBe(17);
  });

  it("reads a streamed dataset only as far as cells are pulled, and gives the same cells", async () => {
    const held = planSuite({ suite: suiteFrom(SUITE), defaultModel: DEFAULT_MODEL });
    const { suite, pulled } = streamed(suiteFrom(SUITE));
    const cells = planCells({ suite, defaultModel: DEFAULT_MODEL })[Symbol.asyncIterator]();
    await cells.next();
    await cells.next();
    expect(pulled()).toBe(1);
    const rest = await collect({ [Symbol.asyncIterator]: () => cells });
    expect(pulled()).toBe(3);
    expect(rest).toEqual(held.slice(2));
    // Counted by arithmetic: every criterion of a streamed item counts (the `when:` is not known before it is read).
    expect(planTotals({ suite, defaultModel: DEFAULT_MODEL })).toEqual({
      cells: 7,
      judgeCalls: 3 * 2 * 2 * 2 + 1,
    });
    expect(() => planSuite({ suite, defaultModel: DEFAULT_MODEL })).toThrow(/planCells/);
  });

  it("compares the cells of an eval whose dataset is streamed as it compares held ones", async () => {
    const text = `${SUITE.replace(
      "matrix: { models: [claude-haiku-4-5, claude-sonnet-4-6] }",
      'matrix: { prompts: ["Answer {{input}}", "Briefly: {{input}}"] }',
    )}
  - name: prompt 1 vs 2
    rubric: "Which answer is better?"
    compare:
      eval: graded
      a: { prompt: 1 }
      b: { prompt: 2 }
`;
    const held = planSuite({ suite: suiteFrom(text), defaultModel: DEFAULT_MODEL });
    const { suite } = streamed(suiteFrom(text));
    const lazy = await collect(planCells({ suite, defaultModel: DEFAULT_MODEL }));
    expect(lazy).toEqual(held);
    expect(lazy.at(-1)!.compared?.pairs.length).toBe(3);
  });
});
