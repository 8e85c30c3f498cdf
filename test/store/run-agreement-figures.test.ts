import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inSuiteOrder } from "../../lib/engine/results/suite-order";
import type { Report } from "../../lib/engine/results/report";
import { judgeDisagreements } from "../../lib/engine/trust/agreement/judge-disagreements";
import { jurorAgreementMatrices } from "../../lib/engine/trust/agreement/juror-agreement-matrix";
import type { JudgeRequest, VerdictKind } from "../../lib/engine/ports/judge-port";
import { agreementOffThread } from "../../lib/offthread/agreement-off-thread";
import { resetSuiteWorkers, suiteWorkers } from "../../lib/offthread/suite-workers";
import type { RunAgreement } from "../../lib/store/agreement-figures";
import type { AgreementAnswer } from "../../lib/store/run-agreement";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// The agreement view's figures are the engine's, to the bit, whichever way they were made: kept by
// finishRun (a finished run's page reads one row), or computed on a worker thread for a run still
// running. A jury, a panel and a matrix over judge models, on boolean, likert and unit scales.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "judge-a",
  concurrency: 4,
  timeoutSeconds: 60,
};

const SUITE = `
evals:
  - name: jury
    response: "An answer."
    rubric:
      scale: { likert: { min: 1, max: 5 } }
      criteria:
        - { name: clear, description: "Clear." }
        - { name: kind, description: "Kind." }
    judge: { jury: { size: 3 } }
    matrix: { prompts: ["item 1", "item 2", "item 3", "item 4", "item 5"] }
  - name: panel
    response: "An answer."
    rubric:
      scale: boolean
      criteria:
        - { name: correct, description: "Correct." }
    judge: { panel: [judge-a, judge-b, judge-c] }
    matrix: { prompts: ["item 1", "item 2", "item 3", "item 4"] }
  - name: models
    response: "An answer."
    rubric: "Good."
    matrix:
      models: [judge-a, judge-b]
      prompts: ["item 1", "item 2", "item 3"]
`;

const promptIndex = (request: JudgeRequest<VerdictKind>) =>
  Number(/<user_prompt>\nitem (\d+)\n/.exec(request.candidatePrompt)?.[1]);

/** Scores that differ by juror, model, prompt and criterion, so α, κ and their intervals are not trivial. */
function scoreOf(request: JudgeRequest<VerdictKind>): number {
  const n = promptIndex(request) * 7 + request.sample * 3 + request.model.length * 5;
  return ((n * 37 + request.candidatePrompt.length) % 11) / 10;
}

function figures(answer: AgreementAnswer): RunAgreement {
  if ("unavailable" in answer) throw new Error(answer.unavailable);
  return answer;
}

let report: Report;
let finishedId: string;
let runningId: string;
beforeAll(async () => {
  const judge = createFakeJudge((request) => ({
    score: scoreOf(request),
    reasoning: `${request.model} #${request.sample}`,
  }));
  report = await runYaml(SUITE, { judge });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "agreement-figures", yaml: SUITE });
  const run = () =>
    store.createRun({
      ...version,
      startedBy: "cli",
      config: CONFIG,
      totalCells: report.results.length,
    });
  [finishedId, runningId] = [await run(), await run()];
  for (const id of [finishedId, runningId]) await store.saveResults(id, report.results);
  await store.finishRun({ runId: finishedId, report, status: "completed" });
});
afterAll(() => suiteWorkers().close());

describe("the agreement view's figures", () => {
  it("are the engine's over the same results, kept by finishRun and computed on a worker thread", async () => {
    expect(report.agreement?.length).toBeGreaterThan(3);
    const ordered = inSuiteOrder([...report.results]);
    const disagreements = judgeDisagreements(ordered);
    const engine = {
      // The CLI's report (ReportTotals: what `eval` prints and writes) and the engine's lists.
      statistics: report.agreement,
      matrices: jurorAgreementMatrices(ordered),
      disagreements: disagreements.slice(0, 200),
      disagreementCount: disagreements.length,
    };
    expect(engine.statistics!.some((s) => s.krippendorffAlpha.ci95)).toBe(true);
    expect(engine.disagreementCount).toBeGreaterThan(0);
    const views = createRunViews(db.prisma);
    // A finished run's figures are read from the run's row: no computation is asked for.
    const refuse = async () => ({ ok: false as const, message: "computed, not read" });
    const kept = figures(await views.runAgreement(finishedId, { compute: refuse }));
    expect(kept).toEqual({ results: 15, ...engine });
    // A run still running: the same figures, from a worker thread.
    await resetSuiteWorkers();
    const running = figures(await views.runAgreement(runningId, { compute: agreementOffThread }));
    expect(running).toEqual(kept);
  });
});

describe("a run judged once per result", () => {
  it("keeps its (empty) agreement without asking a thread for it", async () => {
    const single = "evals:\n  - name: one\n    response: A.\n    rubric: Good.\n";
    const judged = await runYaml(single, {
      judge: createFakeJudge(() => ({ score: 1, reasoning: "ok" })),
    });
    const store = createRunStore(db.prisma);
    const version = await store.saveSuiteVersion({ name: "single-judge", yaml: single });
    const runId = await store.createRun({
      ...version,
      startedBy: "cli",
      config: CONFIG,
      totalCells: judged.results.length,
    });
    await store.saveResults(runId, judged.results);
    let asked = 0;
    await store.finishRun({
      runId,
      report: judged,
      status: "completed",
      computeAgreement: async () => {
        asked++;
        return { ok: false, message: "no thread here" };
      },
    });
    expect(asked).toBe(0);
    const kept = await db.prisma.runAgreementRow.findUnique({ where: { runId } });
    expect(kept?.figures).toMatchObject({ results: 0 });
  });
});
