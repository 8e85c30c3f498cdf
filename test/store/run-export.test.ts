import { describe, expect, it } from "vitest";
import { createRunExport } from "../../lib/store/run-export";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { createStoredRun } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// The run page's CSV download lists results in the suite's order, as the
// CLI's reports do, not in the order they finished (stored) in, which changes
// from run to run; page by page, never the whole run at once.

const db = useTestDatabase();

const SUITE = `evals:
  - name: zeta first
    response: "z"
    rubric: "Answers."
  - name: alpha second
    response: "a"
    rubric: "Answers."
    matrix: { prompts: ["p1", "p2", "p3"] }
  - name: mid third
    response: "m"
    rubric: "Answers."
`;

describe("run export", () => {
  it("pages the results in the suite's order whatever order they were stored in", async () => {
    const report = await runYaml(SUITE, { judge: createFakeJudge(() => ({ score: 0.9 })) });
    const suiteOrder = report.results.map((r) => r.name);
    expect(suiteOrder).toEqual([
      "zeta first",
      "alpha second [prompt=#1]",
      "alpha second [prompt=#2]",
      "alpha second [prompt=#3]",
      "mid third",
    ]);
    const store = createRunStore(db.prisma);
    const runId = await createStoredRun(store, {
      name: "export-order",
      yaml: SUITE,
      cells: report.results.length,
    });
    // Finished last first: the order a concurrent run may well store them in.
    for (const result of [...report.results].reverse()) await store.saveResult(runId, result);

    const names: string[][] = [];
    for await (const page of createRunExport(db.prisma).resultPages(runId, 2))
      names.push(page.map((r) => r.name));
    expect(names).toEqual([suiteOrder.slice(0, 2), suiteOrder.slice(2, 4), suiteOrder.slice(4)]);
  });
});
