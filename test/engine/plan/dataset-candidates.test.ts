import { describe, expect, it } from "vitest";
import { createFakeJudge, rubricTextOf } from "../../support/fake-judge";
import { explainYaml, runYaml } from "../../support/run-yaml";

// Dataset items as an eval's candidates, through the real engine: one cell
// per item, a dataset file nobody read here defers (the dashboard and queue
// workers read no files), and the items are the units judge agreement rates.

describe("candidates: { dataset } in the engine", () => {
  it("a dataset file that was not read here defers the eval with a note, and plans no calls", async () => {
    const yaml = `
datasets:
  qa: { file: qa.json }
evals:
  - name: answers
    candidates: { dataset: qa }
    rubric: "Correct."
`;
    const plan = explainYaml(yaml);
    expect(plan.totals).toMatchObject({ cells: 1, deferred: 1, judgeCalls: 0 });
    const report = await runYaml(yaml, { judge: createFakeJudge(() => ({ score: 1 })) });
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ status: "deferred", name: "answers" });
    expect(report.results[0]!.note).toBe(
      'the items of dataset "qa" are in qa.json, which was not read here (a run from the dashboard or a queue worker reads no files; use inline items:)',
    );
  });

  it("a jury over dataset items: each item is a unit of the agreement statistics", async () => {
    let call = 0;
    // Juror 1 and 2 agree on two items and split on the third.
    const scores = [0.9, 0.9, 0.2, 0.2, 0.9, 0.1];
    const judge = createFakeJudge((request) =>
      rubricTextOf(request) ? { score: scores[call++ % scores.length]! } : { score: 0 },
    );
    const report = await runYaml(
      `
datasets:
  qa:
    items:
      - { id: a, expected_output: "A." }
      - { id: b, expected_output: "B." }
      - { id: c, expected_output: "C." }
evals:
  - name: answers
    candidates: { dataset: qa }
    rubric: "Correct."
    judge: { jury: { size: 2 } }
`,
      { judge, concurrency: 1 },
    );
    expect(report.results.map((r) => r.name)).toEqual([
      "answers [item=a]",
      "answers [item=b]",
      "answers [item=c]",
    ]);
    const agreement = report.agreement?.find((a) => a.eval === "answers");
    expect(agreement?.units).toBe(3);
    expect(agreement?.judges).toHaveLength(2);
  });
});
