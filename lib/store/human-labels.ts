import type { Anchor } from "../config/types";
import { labelScaleOf, parseLabel } from "../engine/trust/people/label-scale";
import {
  reviewSubjectOf,
  type JudgeSaid,
  type ReviewSubject,
} from "../engine/trust/people/review-subject";
import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import type { LabelForDataset } from "../engine/trust/people/reference-item";
import type { CalibrationItem, CriterionCalibration } from "../engine/results/trust";
import type { LoadText } from "./calibrate-suite";
import type { PrismaClient } from "./generated/client";
import { createReviewQueue, type ReviewItem } from "./review-queue";

// Labels people give to review items (human_labels): who, when, at which suite
// version, on which exact candidate text, the answer on the criterion's own
// scale and its 0..1 value. A label is taken only from the reviewer holding
// the item's claim (or claiming it now), and marks the item labelled in the
// same transaction, so an item gets one label however many people try.

/** A stored label (the fields the engine reads are `LabelForDataset`). */
export interface HumanLabel extends LabelForDataset {
  reviewItemId: string | null;
}

export type SaveLabelResult =
  /** With the judges' verdicts and the evidence they cited, which the person sees only now that they have answered. */
  | { ok: true; label: HumanLabel; verdicts: JudgeSaid[]; evidence: string[] }
  | { ok: false; code: "not_found" | "labelled" | "invalid"; message: string }
  | { ok: false; code: "claimed"; message: string; by: string };

/** The item's subject: a stored result's criterion, or a calibration outlier's anchor. */
export async function reviewItemSubject(
  prisma: PrismaClient,
  item: ReviewItem,
): Promise<ReviewSubject | undefined> {
  if (item.reason === "calibration_outlier") {
    const rows = await prisma.calibrationResult.findMany({
      where: { runId: item.runId, evalName: item.evalName, criterion: item.criterion },
      select: { data: true },
    });
    for (const row of rows) {
      const calibration = row.data as unknown as CriterionCalibration;
      const found: CalibrationItem | undefined = calibration.items.find(
        (i) => i.id === item.resultKey,
      );
      if (!found) continue;
      // An anchor's label is a 0..1 score (a category example's pass / partial / fail): the person
      // answers on that scale.
      const scale = labelScaleOf({
        rubricKind: calibration.scale === "categorical" ? "categories" : "criteria",
        scale: calibration.scale === "boolean" ? { kind: "boolean" } : { kind: "unit" },
      });
      return {
        candidate: found.text,
        // Nothing of the suite's label here: the person answers first (what the criterion asks
        // comes from the suite, see labelPageSubject).
        asks: item.criterion,
        scale,
        evidence: [],
        verdicts: (
          found.judges ?? [{ judge: "judge", score: found.judged, reasoning: found.reasoning }]
        ).map((j) => ({
          judge: j.judge,
          said: j.score === null ? "–" : j.score.toFixed(2),
          reasoning: j.reasoning,
        })),
      };
    }
    return undefined;
  }
  const row = await prisma.evalResultRow.findUnique({
    where: { runId_resultKey: { runId: item.runId, resultKey: item.resultKey } },
    select: { data: true },
  });
  return row
    ? reviewSubjectOf(readStoredResult(row.data as unknown as EvalResult), item.criterion)
    : undefined;
}

/** The criterion as the suite version the run graded writes it: what it asks, and its anchors (`examples:`). */
async function reviewItemCriterion(
  prisma: PrismaClient,
  item: ReviewItem,
  loadText: LoadText,
): Promise<{ description?: string; anchors: Anchor[] }> {
  const run = await prisma.run.findUnique({
    where: { id: item.runId },
    select: { config: true, suiteVersion: { select: { yaml: true } } },
  });
  if (!run) return { anchors: [] };
  const attempt = await loadText({
    text: run.suiteVersion.yaml,
    file: (run.config as { file?: string } | null)?.file ?? "suite.yaml",
  });
  // A version that no longer loads (or takes too long) shows no anchors; the question stands without them.
  const loaded = attempt.ok ? attempt.value : undefined;
  if (!loaded?.ok) return { anchors: [] };
  const rubric = loaded.value.evals.find((e) => e.name === item.evalName)?.rubric;
  const criterion =
    rubric?.kind === "criteria"
      ? rubric.criteria.find((c) => c.name === item.criterion)
      : undefined;
  return {
    ...(criterion?.description ? { description: criterion.description } : {}),
    anchors: criterion?.examples ?? [],
  };
}

/**
 * What the labelling page sends the browser about an item: the subject with the
 * criterion's anchors, and the judges' verdicts and cited evidence only once it is `answered`.
 * Before that nothing tells the answer: the item's own text is left out of the
 * anchors (as calibrate leaves an anchor out of its own prompt), and a
 * calibration outlier asks what the criterion asks, not what the suite labelled it.
 */
export async function labelPageSubject(
  prisma: PrismaClient,
  item: ReviewItem,
  loadText: LoadText,
  answered: boolean,
) {
  const [subject, criterion] = await Promise.all([
    reviewItemSubject(prisma, item),
    reviewItemCriterion(prisma, item, loadText),
  ]);
  if (!subject) return undefined;
  // The evidence the judges cited is part of their answer, as their verdicts are.
  const { verdicts, evidence, ...unanswered } = subject;
  const asks =
    item.reason === "calibration_outlier" && criterion.description
      ? criterion.description
      : unanswered.asks;
  const anchors = criterion.anchors
    .filter((a) => a.response !== subject.candidate)
    .map((a) => ({ response: a.response, score: a.score }));
  return {
    ...unanswered,
    asks,
    anchors,
    evidence: answered ? evidence : [],
    ...(answered ? { verdicts } : {}),
  };
}

const NOTE_MAX = 2000;

export function createHumanLabels(prisma: PrismaClient) {
  const queue = createReviewQueue(prisma);
  return {
    /**
     * Labels a review item: claims it for `reviewer` if it is free, checks the answer on the item's
     * scale, stores the label and closes the item.
     */
    async saveLabel(input: {
      itemId: string;
      reviewer: string;
      answer: string;
      note?: string;
    }): Promise<SaveLabelResult> {
      const claim = await queue.claim({ id: input.itemId, reviewer: input.reviewer });
      if (!claim.ok) {
        if (claim.code === "claimed")
          return {
            ok: false,
            code: "claimed",
            by: claim.by,
            message: `${claim.by} is labelling this item`,
          };
        if (claim.code === "labelled")
          return {
            ok: false,
            code: "labelled",
            message: claim.byYou
              ? "you labelled this item already: its second opinion is another person's"
              : "this item is labelled already",
          };
        return { ok: false, code: claim.code, message: "no such review item" };
      }
      const item = claim.item;
      const subject = await reviewItemSubject(prisma, item);
      if (!subject)
        return { ok: false, code: "not_found", message: "the result this item is about is gone" };
      const parsed = parseLabel(subject.scale, input.answer);
      if (!parsed.ok) return { ok: false, code: "invalid", message: parsed.message };
      const run = await prisma.run.findUnique({
        where: { id: item.runId },
        select: { suiteVersionId: true },
      });
      if (!run)
        return { ok: false, code: "not_found", message: "the run this item is about is gone" };
      const note = input.note?.trim().slice(0, NOTE_MAX) || null;
      return prisma.$transaction(async (tx): Promise<SaveLabelResult> => {
        // Still this reviewer's claim (not taken over after its lease) at the moment the label is written;
        // an item offered to a second reviewer opens again, for a different person, until it has its labels.
        const given = await tx.humanLabel.count({ where: { reviewItemId: item.id } });
        const done = given + 1 >= item.labelsWanted;
        const { count } = await tx.reviewItem.updateMany({
          where: { id: item.id, state: "claimed", claimedBy: input.reviewer },
          data: done ? { state: "labelled" } : { state: "open", claimedBy: null, claimedAt: null },
        });
        if (count !== 1)
          return {
            ok: false,
            code: "claimed",
            by: "someone else",
            message: "the claim on this item was taken over",
          };
        const label = await tx.humanLabel.create({
          data: {
            suiteId: item.suiteId,
            suiteVersionId: run.suiteVersionId,
            reviewItemId: item.id,
            runId: item.runId,
            resultKey: item.resultKey,
            evalName: item.evalName,
            criterion: item.criterion,
            reviewer: input.reviewer,
            candidate: subject.candidate,
            scale: subject.scale.kind,
            value: parsed.value,
            score: parsed.score,
            note,
          },
        });
        return { ok: true, label, verdicts: subject.verdicts, evidence: subject.evidence };
      });
    },

    /** A suite's labels, newest first, optionally of one eval and criterion. */
    async labels(input: {
      suiteId: string;
      evalName?: string;
      criterion?: string;
      limit?: number;
    }): Promise<HumanLabel[]> {
      if (!/^[0-9a-f-]{36}$/i.test(input.suiteId)) return [];
      return prisma.humanLabel.findMany({
        where: {
          suiteId: input.suiteId,
          ...(input.evalName ? { evalName: input.evalName } : {}),
          ...(input.criterion ? { criterion: input.criterion } : {}),
        },
        orderBy: { createdAt: "desc" },
        take: Math.min(input.limit ?? 500, 5000),
      });
    },
  };
}
