import { beforeAll, describe, expect, it } from "vitest";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import type { AgreementAnswer } from "../../lib/store/run-agreement";
import type { RunAgreement } from "../../lib/store/agreement-figures";
import type { JudgeRequest, VerdictKind } from "../../lib/engine/ports/judge-port";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// The store's reads behind the agreement view and the heatmap's drill-down,
// on results graded by the engine and stored as a run stores them.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "judge-a",
  concurrency: 4,
  timeoutSeconds: 60,
};
const promptIndex = (request: JudgeRequest<VerdictKind>) =>
  Number(/<user_prompt>\nitem (\d+)\n/.exec(request.candidatePrompt)?.[1]);

const SUITE = `
evals:
  - name: panel
    response: "An answer."
    rubric:
      scale: boolean
      criteria:
        - { name: correct, description: "Correct." }
    judge: { panel: [judge-a, judge-b] }
    matrix: { prompts: ["item 1", "item 2"] }
  - name: matrix
    response: "An answer."
    rubric: "Good."
    matrix:
      models: [judge-a, judge-ab]
      prompts: ["item 1", "item 11"]
  - name: single
    response: "An answer."
    rubric: "Good."
`;

let runId: string;
let singleRunId: string;
beforeAll(async () => {
  // The panel disagrees on item 2 only.
  const judge = createFakeJudge((request) => ({
    score: request.model === "judge-b" && promptIndex(request) === 2 ? 0 : 1,
    reasoning: `${request.model} says so`,
  }));
  const report = await runYaml(SUITE, { judge });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "agreement-suite", yaml: SUITE });
  runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: CONFIG,
    totalCells: report.results.length,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  singleRunId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: CONFIG,
    totalCells: 1,
  });
  await store.saveResult(
    singleRunId,
    report.results.find((r) => r.eval === "single")!,
  );
});

function figures(answer: AgreementAnswer): RunAgreement {
  if ("unavailable" in answer) throw new Error(answer.unavailable);
  return answer;
}

describe("runAgreement", () => {
  it("reads only the multi-judge results (and a matrix's judge-model cells) and returns the engine's statistics, matrix and disagreements", async () => {
    const views = createRunViews(db.prisma);
    expect(await views.hasSeveralJudges(runId)).toBe(true);
    const agreement = figures(await views.runAgreement(runId));
    // The panel's 2 cells, and the 4 cells of "matrix": its two judge models grade each prompt's candidate.
    expect(agreement.results).toBe(6);
    expect(
      agreement.statistics.map((s) => [s.eval, s.item, s.units, s.exactAgreement.value]),
    ).toEqual([
      ["panel", "correct", 2, 0.5],
      ["matrix", "(rubric)", 2, 1],
    ]);
    expect(agreement.matrices.map((m) => [m.eval, m.judges])).toEqual([
      ["panel", ["judge-a", "judge-b"]],
      ["matrix", ["judge-a", "judge-ab"]],
    ]);
    // Before, the two models of a matrix shared no unit ("0/0"): each prompt is one.
    expect(agreement.matrices[1]!.cells[0]![1]).toEqual({
      units: 2,
      agreed: 2,
      agreement: 1,
      meanAbsDifference: 0,
    });
    expect(agreement.matrices[0]!.cells[0]![1]).toEqual({
      units: 2,
      agreed: 1,
      agreement: 0.5,
      meanAbsDifference: 0.5,
    });
    expect(
      agreement.disagreements.map((d) => [
        d.resultName,
        d.verdicts.map((v) => `${v.judge} ${v.label}: ${v.reasoning}`),
      ]),
    ).toEqual([
      ["panel [prompt=#2]", ["judge-a pass: judge-a says so", "judge-b fail: judge-b says so"]],
    ]);
  });

  it("has nothing for a single-judge run", async () => {
    const views = createRunViews(db.prisma);
    expect(await views.hasSeveralJudges(singleRunId)).toBe(false);
    expect(await views.runAgreement(singleRunId)).toEqual({
      results: 0,
      statistics: [],
      matrices: [],
      disagreements: [],
      disagreementCount: 0,
    });
    expect(await views.runAgreement("not-a-uuid")).toEqual({
      results: 0,
      statistics: [],
      matrices: [],
      disagreements: [],
      disagreementCount: 0,
    });
  });
});

describe("runResultsPage with a cell", () => {
  it("keeps exactly one matrix cell by its coordinates, not by a name search", async () => {
    const queries = createRunQueries(db.prisma);
    const page = await queries.runResultsPage({
      runId,
      cell: { model: "judge-a", promptIndex: 1 },
      pageSize: 50,
    });
    expect(page.rows.map((r) => r.name)).toEqual(["matrix [model=judge-a, prompt=#1]"]);
    expect(page.total).toBe(1);
    // A prompt-only cell (the panel eval's): the name search "prompt=#1]" would also match the model matrix's.
    const promptOnly = await queries.runResultsPage({
      runId,
      cell: { model: null, promptIndex: 1 },
      pageSize: 50,
    });
    expect(promptOnly.rows.map((r) => r.name)).toEqual(["panel [prompt=#1]"]);
  });
});
