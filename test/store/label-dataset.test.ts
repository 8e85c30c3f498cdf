import { beforeAll, describe, expect, it } from "vitest";
import { parseDatasetFile } from "../../lib/config/parse-dataset-file";
import { createHumanLabels } from "../../lib/store/human-labels";
import { createLabelDataset } from "../../lib/store/label-dataset";
import { createReviewQueue } from "../../lib/store/review-queue";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import { RESPONSE, REVIEW_QUEUE_SUITE, reviewQueueScript } from "../support/review-queue-suite";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// "Add to dataset": labels appended to the suite's ReferenceDataset, once
// each, exported as the Go package's JSON that a suite's datasets: { file: }
// reads back with the labels as human annotations.

const db = useTestDatabase();
let suiteId: string;
const labelIds: Record<string, string> = {};

beforeAll(async () => {
  const report = await runYaml(REVIEW_QUEUE_SUITE, { judge: createFakeJudge(reviewQueueScript()) });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "dataset-suite", yaml: REVIEW_QUEUE_SUITE });
  suiteId = version.suiteId;
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "suite.yaml",
      toolVersion: "0.1.0",
      judgeModel: "m",
      concurrency: 1,
      timeoutSeconds: 60,
    },
    totalCells: report.results.length,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
  const { items } = await createReviewQueue(db.prisma).list({ suiteId });
  const answers: Record<string, string> = {
    accurate: "4",
    goal: "partial",
    n1: "A",
    "(decision)": "conditional",
  };
  for (const item of items) {
    const saved = await createHumanLabels(db.prisma).saveLabel({
      itemId: item.id,
      reviewer: "ana",
      answer: answers[item.criterion]!,
      ...(item.criterion === "accurate" ? { note: "one detail missing" } : {}),
    });
    if (saved.ok) labelIds[item.criterion] = saved.label.id;
  }
});

describe("Add to dataset", () => {
  it("appends a label as a ReferenceData item with a human annotation, once", async () => {
    const dataset = createLabelDataset(db.prisma);
    const added = await dataset.add(labelIds.accurate!);
    expect(added).toMatchObject({
      ok: true,
      value: {
        suiteId,
        added: true,
        items: 1,
        item: {
          expected_output: RESPONSE,
          annotations: [
            {
              name: "accurate",
              score: 0.75,
              explanation: "one detail missing",
              annotator_id: "ana",
              annotator_type: "human",
            },
          ],
          tags: ["jury split"],
          metadata: { scale: "likert", answer: "4" },
        },
      },
    });
    expect(await dataset.add(labelIds.accurate!)).toMatchObject({
      ok: true,
      value: { added: false, items: 1 },
    });
    expect(await dataset.add("0b7e7a3c-0000-4000-8000-000000000000")).toEqual({
      ok: false,
      code: "not_found",
      message: "no such label",
    });
    expect(await dataset.add("not-a-uuid")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("exports the Go ReferenceDataset JSON that a suite's dataset file reads back, words as labels", async () => {
    const dataset = createLabelDataset(db.prisma);
    for (const criterion of ["goal", "(decision)", "n1"]) await dataset.add(labelIds[criterion]!);
    const exported = await dataset.dataset(suiteId);
    expect(exported!.items.map((i) => i.annotations[0])).toEqual([
      expect.objectContaining({ name: "accurate", score: 0.75 }),
      { name: "goal", score: 0.5, label: "partial", annotator_id: "ana", annotator_type: "human" },
      {
        name: "decision",
        score: 0.5,
        label: "conditional",
        annotator_id: "ana",
        annotator_type: "human",
      },
      { name: "n1", label: "A", annotator_id: "ana", annotator_type: "human" },
    ]);
    const read = parseDatasetFile({ text: JSON.stringify(exported), file: "labels.json" });
    expect(read.ok).toBe(true);
    expect(
      read.ok &&
        read.items.map((i) => [
          i.expectedOutput === undefined ? "" : "text",
          i.annotations?.[0]?.name,
        ]),
    ).toEqual([
      ["text", "accurate"],
      ["text", "goal"],
      ["text", "decision"],
      ["text", "n1"],
    ]);
    expect(await dataset.dataset("not-a-uuid")).toBeUndefined();
  });
});
