import { beforeAll, describe, expect, it } from "vitest";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import { createCalibrationStore } from "../../lib/store/calibration-store";
import { createHumanLabels } from "../../lib/store/human-labels";
import { CLAIM_LEASE_MS, createReviewQueue } from "../../lib/store/review-queue";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import {
  RESPONSE,
  REVIEW_QUEUE_SUITE as SUITE,
  reviewQueueScript as script,
} from "../support/review-queue-suite";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// The review queue on a real database: a finished run fills it with what the
// judges could not settle (a jury split, a review decided human_review, a
// position-biased pair), each with why; one reviewer at a time holds an item;
// a label is stored with who, the suite version, the exact candidate text and
// the answer on the criterion's own scale.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-5",
  concurrency: 1,
  timeoutSeconds: 60,
};

let runId: string;
let suiteId: string;
beforeAll(async () => {
  const report = await runYaml(SUITE, { judge: createFakeJudge(script()) });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "queue-suite", yaml: SUITE });
  suiteId = version.suiteId;
  runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: CONFIG,
    totalCells: report.results.length,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
  // Finishing a run again (a resume, a second worker) queues nothing twice.
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
});

describe("filling the queue when a run finishes", () => {
  it("queues the jury split, the human_review decision and the position-biased pair, each saying why", async () => {
    const { items, byReason } = await createReviewQueue(db.prisma).list({ suiteId });
    expect(items.map((i) => [i.evalName, i.criterion, i.reason])).toEqual([
      ["jury split", "accurate", "judges_split"],
      ["notes", "n1", "position_biased"],
      ["prd review", "(decision)", "human_review"],
      ["prd review", "goal", "judges_split"],
    ]);
    // Why each is there, and nothing of what the judges answered (who passed, the rationale, which output each chose).
    expect(items.map((i) => i.detail)).toEqual([
      "the judges disagree: some pass it, some fail it (3 judges)",
      "the judge's choice changed with the order the outputs were shown in (claude-sonnet-4-5)",
      "the judges left the review's decision to a person",
      "the judges disagree: some pass it, some fail it (2 judges)",
    ]);
    // Each row names its run and the suite version the run graded.
    expect(items.map((i) => i.from.version)).toEqual([1, 1, 1, 1]);
    expect(items.map((i) => i.from.resultName)).toEqual([
      "jury split",
      "notes",
      "prd review",
      "prd review",
    ]);
    expect(items.every((i) => i.from.kind === "eval")).toBe(true);
    expect(byReason).toEqual({ human_review: 1, judges_split: 2, position_biased: 1 });
    expect(items.every((i) => i.state === "open" && i.runId === runId)).toBe(true);
  });

  it("filters by reason, eval and criterion", async () => {
    const queue = createReviewQueue(db.prisma);
    expect(
      (await queue.list({ suiteId, reason: "judges_split" })).items.map((i) => i.criterion),
    ).toEqual(["accurate", "goal"]);
    expect((await queue.list({ suiteId, evalName: "notes" })).items).toHaveLength(1);
    expect((await queue.list({ suiteId, criterion: "accurate" })).items).toHaveLength(1);
    expect((await queue.list({ suiteId: "not-a-uuid" })).items).toEqual([]);
  });
});

describe("claiming", () => {
  it("gives an item to exactly one of two reviewers claiming it at once", async () => {
    const queue = createReviewQueue(db.prisma);
    const [item] = (await queue.list({ suiteId, reason: "position_biased" })).items;
    const claims = await Promise.all([
      queue.claim({ id: item!.id, reviewer: "ana" }),
      queue.claim({ id: item!.id, reviewer: "ben" }),
    ]);
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
    const loser = claims.find((c) => !c.ok)!;
    const winner = claims.find((c) => c.ok)!;
    expect(loser).toMatchObject({
      ok: false,
      code: "claimed",
      by: winner.ok ? winner.item.claimedBy : "",
    });
    // The holder may claim again; after the lease, another reviewer may take it over.
    const holder = winner.ok ? winner.item.claimedBy! : "";
    expect((await queue.claim({ id: item!.id, reviewer: holder })).ok).toBe(true);
    const later = new Date(Date.now() + CLAIM_LEASE_MS + 1000);
    expect(await queue.claim({ id: item!.id, reviewer: "cy", now: later })).toMatchObject({
      ok: true,
      item: { claimedBy: "cy" },
    });
    expect(await queue.release({ id: item!.id, reviewer: "ana" === holder ? "ben" : "ana" })).toBe(
      false,
    );
    expect(await queue.release({ id: item!.id, reviewer: "cy" })).toBe(true);
    expect(
      await queue.claim({ id: "0b7e7a3c-0000-4000-8000-000000000000", reviewer: "ana" }),
    ).toEqual({ ok: false, code: "not_found" });
  });
});

describe("labels", () => {
  it("stores who, the suite version, the exact candidate and the answer on the criterion's own scale, once", async () => {
    const queue = createReviewQueue(db.prisma);
    const labels = createHumanLabels(db.prisma);
    const [item] = (await queue.list({ suiteId, criterion: "accurate" })).items;
    expect(
      await labels.saveLabel({ itemId: item!.id, reviewer: "ana", answer: "7" }),
    ).toMatchObject({
      ok: false,
      code: "invalid",
      message: expect.stringContaining("1, 2, 3, 4, 5"),
    });
    expect(
      await labels.saveLabel({ itemId: item!.id, reviewer: "ben", answer: "4" }),
    ).toMatchObject({ ok: false, code: "claimed", by: "ana" });

    const saved = await labels.saveLabel({
      itemId: item!.id,
      reviewer: "ana",
      answer: "4",
      note: "  right change, one detail missing ",
    });
    expect(saved).toMatchObject({
      ok: true,
      label: {
        reviewer: "ana",
        scale: "likert",
        value: "4",
        score: 0.75,
        candidate: RESPONSE,
        note: "right change, one detail missing",
        evalName: "jury split",
        criterion: "accurate",
      },
    });
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(saved.ok && saved.label.suiteVersionId).toBe(run.suiteVersionId);

    expect(
      await labels.saveLabel({ itemId: item!.id, reviewer: "ana", answer: "5" }),
    ).toMatchObject({ ok: false, code: "labelled" });
    expect((await queue.list({ suiteId })).items.map((i) => i.id)).not.toContain(item!.id);
    expect((await queue.list({ suiteId, state: "labelled" })).items.map((i) => i.id)).toEqual([
      item!.id,
    ]);
    expect((await labels.labels({ suiteId, criterion: "accurate" })).map((l) => l.value)).toEqual([
      "4",
    ]);
  });

  it("labels a review's category on pass / partial / fail, and a pair by its winner", async () => {
    const queue = createReviewQueue(db.prisma);
    const labels = createHumanLabels(db.prisma);
    const goal = (await queue.list({ suiteId, criterion: "goal" })).items[0]!;
    expect(
      await labels.saveLabel({ itemId: goal.id, reviewer: "ben", answer: "partial" }),
    ).toMatchObject({
      ok: true,
      label: {
        scale: "category",
        value: "partial",
        score: 0.5,
        candidate: "Plan: ship on Friday.",
      },
    });
    const pair = (await queue.list({ suiteId, reason: "position_biased" })).items[0]!;
    const labelled = await labels.saveLabel({ itemId: pair.id, reviewer: "ben", answer: "b" });
    expect(labelled).toMatchObject({
      ok: true,
      label: { scale: "pairwise", value: "B", score: null },
    });
    expect(labelled.ok && labelled.label.candidate).toBe(
      "A (A):\nShort note.\n\nB (B):\nLonger note.",
    );
  });
});

describe("calibration outliers", () => {
  it("a stored calibration queues its outliers; a person labels the anchor's text on a 0..1 scale", async () => {
    const item = (id: string, label: number, judged: number, outlier: boolean) => ({
      id,
      source: "anchor" as const,
      label,
      judged,
      error: judged - label,
      outlier,
      reasoning: `judged ${judged}`,
      text: `anchor ${id} text`,
    });
    const calibration = {
      tolerance: 0.25,
      criteria: [
        {
          eval: "jury split",
          item: "accurate",
          scale: "unit",
          items: [item("a1", 1, 0.2, true), item("a2", 0.5, 0.6, false)],
          graded: 2,
          mae: 0.45,
          kappa: { weights: "quadratic", value: null },
          confusion: { categories: [], matrix: [] },
          outliers: 1,
        },
      ],
      overMaxError: [],
      probes: 2,
      ungraded: 0,
      judgeCalls: 2,
      costUsd: 0,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    } as unknown as CalibrationResult;
    await createCalibrationStore(db.prisma).saveCalibration({
      suiteName: "queue-suite",
      yaml: SUITE,
      result: calibration,
      startedBy: "cli",
      config: { ...CONFIG, tolerance: 0.25 },
    });
    const { items } = await createReviewQueue(db.prisma).list({
      suiteId,
      reason: "calibration_outlier",
    });
    expect(items.map((i) => [i.evalName, i.criterion, i.resultKey, i.detail])).toEqual([
      ["jury split", "accurate", "a1", "the judge and the suite's label differ"],
    ]);
    const saved = await createHumanLabels(db.prisma).saveLabel({
      itemId: items[0]!.id,
      reviewer: "ana",
      answer: "0.4",
    });
    expect(saved).toMatchObject({
      ok: true,
      label: { candidate: "anchor a1 text", scale: "unit", value: "0.40", score: 0.4 },
      verdicts: [{ said: "0.20", reasoning: "judged 0.2" }],
    });
  });
});

describe("Ask a person on every kind of result", () => {
  it("asks about a review's decision (answered pass / conditional / fail) and a compared pair (answered by its winner)", async () => {
    const queue = createReviewQueue(db.prisma);
    const labels = createHumanLabels(db.prisma);
    const review = (await queue.list({ suiteId, reason: "human_review", state: "all" })).items[0]!;
    const decision = await queue.ask({
      runId,
      resultKey: review.resultKey,
      criterion: "(decision)",
      by: "ana",
      note: "is Friday enough?",
    });
    expect(decision).toMatchObject({
      ok: true,
      value: {
        reason: "asked",
        criterion: "(decision)",
        evalName: "prd review",
        detail: "asked by ana: is Friday enough?",
      },
    });
    expect(
      await labels.saveLabel({
        itemId: decision.ok ? decision.value.id : "",
        reviewer: "ana",
        answer: "partial",
      }),
    ).toMatchObject({
      ok: false,
      code: "invalid",
      message: expect.stringContaining("fail, conditional, pass"),
    });
    expect(
      await labels.saveLabel({
        itemId: decision.ok ? decision.value.id : "",
        reviewer: "ana",
        answer: "conditional",
      }),
    ).toMatchObject({ ok: true, label: { scale: "decision", value: "conditional", score: 0.5 } });

    const pair = (await queue.list({ suiteId, reason: "position_biased", state: "all" })).items[0]!;
    const asked = await queue.ask({ runId, resultKey: pair.resultKey, criterion: "n1", by: "ben" });
    expect(asked).toMatchObject({ ok: true, value: { reason: "asked", criterion: "n1" } });
    expect(
      await labels.saveLabel({
        itemId: asked.ok ? asked.value.id : "",
        reviewer: "ben",
        answer: "tie",
      }),
    ).toMatchObject({ ok: true, label: { scale: "pairwise", value: "tie", score: null } });
  });

  it("refuses a question about something the result does not have, saying what it has", async () => {
    const review = (
      await createReviewQueue(db.prisma).list({ suiteId, reason: "human_review", state: "all" })
    ).items[0]!;
    expect(
      await createReviewQueue(db.prisma).ask({
        runId,
        resultKey: review.resultKey,
        criterion: "accurate",
        by: "ana",
      }),
    ).toEqual({
      ok: false,
      code: "bad_request",
      message: '"accurate" is not in this result: ask about (decision), goal',
    });
  });
});
