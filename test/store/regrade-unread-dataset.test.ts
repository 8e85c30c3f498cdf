import { describe, expect, it } from "vitest";
import { runSuite } from "../../lib/engine/run-suite";
import { planFlipsPreview } from "../../lib/store/flips-preview";
import { enqueueRegrade } from "../../lib/store/regrade-run";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import { flatPrice, suiteFrom } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// A suite whose eval grades the items of a dataset *file*, re-graded from the
// dashboard (Re-grade with…, the editor's flips preview), which reads no
// files: its stored results are not "no longer in this version"; the page says
// the real cause, names the file and the CLI command that reads it.

const db = useTestDatabase();

const suiteText = (dataset: string) =>
  [
    "evals:",
    "  - name: qa",
    "    candidates: { dataset: questions }",
    '    rubric: "Answers the question."',
    "  - name: greeting",
    '    response: "Hello."',
    '    rubric: "Is polite."',
    "datasets:",
    `  questions: ${dataset}`,
  ].join("\n");
const INLINE = suiteText(
  '{ items: [{ id: a, input: "2+2?", expected_output: "4" }, { id: b, input: "3+3?", expected_output: "6" }] }',
);
const FILE = suiteText("{ file: questions.jsonl }");

describe("a regrade in the dashboard of a suite that reads a dataset file", () => {
  it("says the file is not read here, instead of calling its results gone", async () => {
    const store = createRunStore(db.prisma);
    const report = await runSuite(
      {
        suite: suiteFrom(INLINE),
        defaultModel: "claude-sonnet-4-5",
        concurrency: 1,
        toolVersion: "test",
      },
      { judge: createFakeJudge(() => ({ score: 0.9 })), now: Date.now, priceOf: flatPrice(0.01) },
    );
    expect(report.results.map((r) => r.status)).toEqual(["passed", "passed", "passed"]);
    const version = await store.saveSuiteVersion({ name: "qa.yaml", yaml: INLINE });
    const runId = await store.createRun({
      ...version,
      startedBy: "cli",
      config: {
        file: "qa.yaml",
        toolVersion: "test",
        judgeModel: "claude-sonnet-4-5",
        concurrency: 1,
        timeoutSeconds: 60,
      },
      totalCells: 3,
      status: "completed",
    });
    await store.saveResults(runId, report.results);
    await store.setStatus(runId, "completed");
    const fileVersion = await store.saveSuiteVersion({ name: "qa.yaml", yaml: FILE });

    const cause =
      /^2 results of eval "qa" not re-graded here: its candidates are the items of dataset "questions", in the file questions\.jsonl, and the dashboard reads no files\. Re-grade them where the file is: rubric-studio regrade [0-9a-f-]{36} --config <the suite file>\.$/;
    // Only the dataset's eval: nothing to queue, refused with the cause (no queue is opened).
    const onlyQa = await store.saveSuiteVersion({
      name: "qa.yaml",
      yaml: FILE.replace(/ {2}- name: greeting\n.*\n.*\n/, ""),
    });
    const refused = await enqueueRegrade({
      prisma: db.prisma,
      databaseUrl: db.url,
      sourceRunId: runId,
      versionId: onlyQa.suiteVersionId,
      judgeModel: "claude-sonnet-4-5",
      toolVersion: "test",
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    // The greeting is gone from that version; qa's two results are not.
    const [qa, greeting, ...rest] = refused.message
      .replace(/^Nothing to re-grade: /, "")
      .split(/(?<=\.) (?=\d)/);
    expect(qa).toMatch(cause);
    expect(greeting).toBe("1 result of the run no longer in this version: not re-graded.");
    expect(rest).toEqual([]);

    // The editor's preview of the file version: the greeting compared, qa's results set apart.
    const plan = await planFlipsPreview({
      prisma: db.prisma,
      runId,
      suiteId: fileVersion.suiteId,
      suite: suiteFrom(FILE),
      defaultModel: "claude-sonnet-4-5",
      toolVersion: "test",
      priceOf: flatPrice(0.01),
      maxCalls: 100,
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.value).toMatchObject({ compared: 1, gone: [], added: [] });
    expect(plan.value.unread).toHaveLength(1);
    expect(plan.value.unread[0]).toMatch(cause);
  });
});
