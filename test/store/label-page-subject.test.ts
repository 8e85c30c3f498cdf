import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import { createCalibrationStore } from "../../lib/store/calibration-store";
import { createHumanLabels, labelPageSubject } from "../../lib/store/human-labels";
import { createReviewQueue } from "../../lib/store/review-queue";
import { useTestDatabase } from "../support/test-database";

// Issue #14: what the labelling page sends the browser about a calibration
// outlier before the person answers. Nothing may tell the suite's label or the
// judge's score: not the queue's "why", not what the criterion asks, not the
// item's own anchor listed among the anchors. After the answer, the verdicts.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-5",
  concurrency: 1,
  timeoutSeconds: 60,
  tolerance: 0.25,
};
const SUITE = `
evals:
  - name: refunds
    response: "Refunds take 5 days."
    rubric:
      criteria:
        - name: cites policy
          description: "Quotes the refund policy's own words."
          examples:
            - { response: "Ask support maybe.", score: 0.0 }
            - { response: "Per policy 4.2, refunds take 5 business days.", score: 1.0 }
`;
const loadHere = async (input: { text: string; file: string }) => ({
  ok: true as const,
  value: loadSuite(input),
});

function calibration(): CalibrationResult {
  const item = (id: string, text: string, label: number, judged: number) => ({
    id,
    source: "anchor" as const,
    label,
    judged,
    error: judged - label,
    outlier: Math.abs(judged - label) > 0.25,
    reasoning: `The judge says ${judged.toFixed(2)}: SECRET-REASONING`,
    text,
  });
  const items = [
    item("cites policy#1", "Ask support maybe.", 0, 1),
    item("cites policy#2", "Per policy 4.2, refunds take 5 business days.", 1, 1),
  ];
  return {
    tolerance: 0.25,
    criteria: [
      {
        eval: "refunds",
        item: "cites policy",
        scale: "unit",
        items,
        graded: 2,
        mae: 0.5,
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
}

describe("labelling a calibration outlier", () => {
  it("sends nothing of the answer before the label is saved; the criterion's description, and the other anchors only", async () => {
    await createCalibrationStore(db.prisma).saveCalibration({
      suiteName: "page-suite",
      yaml: SUITE,
      result: calibration(),
      startedBy: "cli",
      config: CONFIG,
    });
    const suite = await db.prisma.suite.findFirstOrThrow({ where: { name: "page-suite" } });
    const queue = createReviewQueue(db.prisma);
    const { items } = await queue.list({ suiteId: suite.id, reason: "calibration_outlier" });
    expect(items.map((i) => [i.criterion, i.detail])).toEqual([
      ["cites policy", "the judge and the suite's label differ"],
    ]);
    const item = items[0]!;

    const before = await labelPageSubject(db.prisma, item, loadHere, false);
    expect(before).toMatchObject({
      candidate: "Ask support maybe.",
      asks: "Quotes the refund policy's own words.",
    });
    // The item's own anchor is not listed; the other one is, with its score.
    expect(before!.anchors).toEqual([
      { response: "Per policy 4.2, refunds take 5 business days.", score: 1 },
    ]);
    expect(before).not.toHaveProperty("verdicts");
    // Everything the page sends the browser (the queue row's why and the subject): no label, no judged score, no reasoning.
    const { scale, ...rest } = before!;
    expect(scale.kind).toBe("unit");
    const sent = JSON.stringify({ detail: item.detail, subject: rest });
    expect(sent).not.toMatch(/labelled|judged|tolerance|SECRET-REASONING|0\.00|\b0\.0\b/);

    const saved = await createHumanLabels(db.prisma).saveLabel({
      itemId: item.id,
      reviewer: "ana",
      answer: "0.25",
    });
    expect(saved.ok).toBe(true);
    const after = await labelPageSubject(db.prisma, item, loadHere, true);
    expect(after!.verdicts).toEqual([
      { judge: "judge", said: "1.00", reasoning: "The judge says 1.00: SECRET-REASONING" },
    ]);
  });

  it("an outlier queued before with the old revealing why reads neutral", async () => {
    const suite = await db.prisma.suite.findFirstOrThrow({ where: { name: "page-suite" } });
    const run = await db.prisma.run.findFirstOrThrow({ where: { suiteId: suite.id } });
    await db.prisma.reviewItem.create({
      data: {
        suiteId: suite.id,
        runId: run.id,
        resultKey: "old",
        evalName: "refunds",
        criterion: "cites policy",
        reason: "calibration_outlier",
        detail: "labelled 0.00, judged 1.00 (tolerance 0.25)",
      },
    });
    const { items } = await createReviewQueue(db.prisma).list({
      suiteId: suite.id,
      reason: "calibration_outlier",
    });
    expect(items.find((i) => i.resultKey === "old")?.detail).toBe(
      "the judge and the suite's label differ",
    );
  });

  it("items queued before with the judges' answer in their why (who passed, which output each chose, the rationale) read as their reason alone", async () => {
    const suite = await db.prisma.suite.findFirstOrThrow({ where: { name: "page-suite" } });
    const run = await db.prisma.run.findFirstOrThrow({ where: { suiteId: suite.id } });
    const old = {
      judges_split:
        "1 of 3 judges passed (claude-sonnet-4-6 #1 0.10, claude-sonnet-4-6 #2 0.10, claude-sonnet-4-6 #3 0.95)",
      position_biased: "claude-sonnet-4-6 chose A with A first and B with B first",
      uncertain: "claude-sonnet-4-6 could not decide (A with A first, uncertain with B first)",
      human_review: "decided human_review: security findings need a person",
      asked: "asked by Ana: is this right?",
    };
    for (const [reason, detail] of Object.entries(old))
      await db.prisma.reviewItem.create({
        data: {
          suiteId: suite.id,
          runId: run.id,
          resultKey: `old-${reason}`,
          evalName: "refunds",
          criterion: "cites policy",
          reason,
          detail,
        },
      });
    const { items } = await createReviewQueue(db.prisma).list({ suiteId: suite.id });
    const shown = Object.fromEntries(
      items.filter((i) => i.resultKey.startsWith("old-")).map((i) => [i.reason, i.detail]),
    );
    expect(shown).toEqual({
      judges_split: "the judges disagree",
      position_biased: "the judge's choice changed with the order the outputs were shown in",
      uncertain: "the judge could not decide between the outputs",
      human_review: "the judges left the review's decision to a person",
      asked: "asked by Ana: is this right?",
    });
  });
});
