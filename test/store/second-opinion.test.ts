import { beforeAll, describe, expect, it } from "vitest";
import { createHumanLabels } from "../../lib/store/human-labels";
import { labelPeopleAgreement } from "../../lib/store/label-calibration";
import { createReviewQueue } from "../../lib/store/review-queue";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import { REVIEW_QUEUE_SUITE, reviewQueueScript } from "../support/review-queue-suite";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// People as raters of one another: a suite that sets review.second_opinion_rate
// offers its queued items to a second reviewer; after the first label the
// item stays open for a different person (not for the first), and the two
// labels give agreement between people.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-5",
  concurrency: 1,
  timeoutSeconds: 60,
};

const suite = (rate: number) => `review: { second_opinion_rate: ${rate} }\n${REVIEW_QUEUE_SUITE}`;

async function storeRun(name: string, yaml: string) {
  const report = await runYaml(yaml, { judge: createFakeJudge(reviewQueueScript()) });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name, yaml });
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: CONFIG,
    totalCells: report.results.length,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
  return { runId, suiteId: version.suiteId };
}

let run: { runId: string; suiteId: string };
beforeAll(async () => {
  run = await storeRun("second-opinions", suite(1));
});

describe("second opinions", () => {
  it("a suite without a rate (0) wants one label per item; at rate 1 every item wants two", async () => {
    const none = await storeRun("one-label", suite(0));
    expect(
      (await createReviewQueue(db.prisma).list({ suiteId: none.suiteId })).items.map(
        (i) => i.labelsWanted,
      ),
    ).toEqual([1, 1, 1, 1]);
    const { items } = await createReviewQueue(db.prisma).list({ suiteId: run.suiteId });
    expect(items.map((i) => [i.criterion, i.labelsWanted])).toEqual([
      ["accurate", 2],
      ["n1", 2],
      ["(decision)", 2],
      ["goal", 2],
    ]);
  });

  it("keeps an item open after its first label for a second, different person, not for the first", async () => {
    const queue = createReviewQueue(db.prisma);
    const labels = createHumanLabels(db.prisma);
    const goal = (await queue.list({ suiteId: run.suiteId, criterion: "goal" })).items[0]!;
    expect(
      await labels.saveLabel({ itemId: goal.id, reviewer: "ana", answer: "pass" }),
    ).toMatchObject({ ok: true });
    expect(await queue.get(goal.id)).toMatchObject({
      state: "open",
      claimedBy: null,
      labelledBy: ["ana"],
    });

    // The queue as ana sees it no longer offers it; ben's still does.
    expect(
      (await queue.list({ suiteId: run.suiteId, reviewer: "ana" })).items.map((i) => i.criterion),
    ).not.toContain("goal");
    expect(
      (await queue.list({ suiteId: run.suiteId, reviewer: "ben" })).items.map((i) => i.criterion),
    ).toContain("goal");
    expect(await queue.claim({ id: goal.id, reviewer: "ana" })).toEqual({
      ok: false,
      code: "labelled",
      byYou: true,
    });
    expect(
      await labels.saveLabel({ itemId: goal.id, reviewer: "ana", answer: "fail" }),
    ).toMatchObject({
      ok: false,
      code: "labelled",
      message: expect.stringContaining("another person's"),
    });

    expect(
      await labels.saveLabel({ itemId: goal.id, reviewer: "ben", answer: "fail" }),
    ).toMatchObject({ ok: true, label: { reviewer: "ben", value: "fail" } });
    expect(await queue.get(goal.id)).toMatchObject({
      state: "labelled",
      labelledBy: ["ana", "ben"],
    });
    expect(
      await labels.saveLabel({ itemId: goal.id, reviewer: "cy", answer: "pass" }),
    ).toMatchObject({ ok: false, code: "labelled", message: "this item is labelled already" });
  });

  it("measures agreement between the two people per criterion", async () => {
    const queue = createReviewQueue(db.prisma);
    const labels = createHumanLabels(db.prisma);
    const accurate = (await queue.list({ suiteId: run.suiteId, criterion: "accurate" })).items[0]!;
    await labels.saveLabel({ itemId: accurate.id, reviewer: "ana", answer: "4" });
    await labels.saveLabel({ itemId: accurate.id, reviewer: "ben", answer: "4" });
    const rows = await labelPeopleAgreement(db.prisma, { runId: run.runId });
    // goal: pass vs fail on one item: o_pf = o_fp = 1, n = 2: alpha = 1 - 1 * 2 / (2 * 1 * 1) = 0. accurate: both 4, so alpha is undefined, exact 1.
    expect(rows.map((r) => [r.eval, r.item, r.level, r.units, r.exact, r.alpha.value])).toEqual([
      ["jury split", "accurate", "interval", 1, 1, null],
      ["prd review", "goal", "nominal", 1, 0, 0],
    ]);
    expect(await labelPeopleAgreement(db.prisma, { suiteId: run.suiteId })).toEqual(rows);
    expect(await labelPeopleAgreement(db.prisma, { runId: "not-a-uuid" })).toEqual([]);
  });
});
