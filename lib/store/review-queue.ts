import { calibrationOutlierDetail, type ReviewQuestion, type ReviewReason } from "../engine/trust/people/needs-person";
import type { PrismaClient } from "./generated/client";

// A suite's review queue: questions for a person (review_items), filled when a
// run finishes (fill-review-queue.ts) or by hand ("Ask a person"). A reviewer
// claims an item before labelling it; the claim is one conditional UPDATE, so
// of two reviewers claiming at once exactly one gets it. A claim older than
// CLAIM_LEASE_MS can be taken over (a reviewer who walked away).

export const CLAIM_LEASE_MS = 30 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReviewItemState = "open" | "claimed" | "labelled";

export interface ReviewItem {
  id: string;
  suiteId: string;
  runId: string;
  resultKey: string;
  evalName: string;
  criterion: string;
  reason: ReviewReason;
  detail: string;
  state: ReviewItemState;
  claimedBy: string | null;
  claimedAt: Date | null;
  createdAt: Date;
}

export interface QueueFilter {
  suiteId: string;
  reason?: ReviewReason;
  evalName?: string;
  criterion?: string;
  /** Default: items not labelled yet (open or claimed). */
  state?: ReviewItemState | "pending" | "all";
  limit?: number;
}

export type ClaimResult = { ok: true; item: ReviewItem } | { ok: false; code: "not_found" } | { ok: false; code: "claimed"; by: string } | { ok: false; code: "labelled" };

const toItem = (row: Omit<ReviewItem, "reason" | "state"> & { reason: string; state: string }): ReviewItem => ({
  ...row,
  // Outliers queued before their detail was neutral said the suite's label and the judge's score: never shown before a person answers.
  detail: row.reason === "calibration_outlier" && row.detail.startsWith("labelled ") ? calibrationOutlierDetail([row.evalName]) : row.detail,
  reason: row.reason as ReviewReason,
  state: row.state as ReviewItemState,
});

function stateWhere(state: QueueFilter["state"]) {
  if (state === "all") return {};
  if (state === undefined || state === "pending") return { state: { in: ["open", "claimed"] } };
  return { state };
}

export function createReviewQueue(prisma: PrismaClient) {
  return {
    /** Adds questions of one run to its suite's queue; a question already there (same run, result, criterion, reason) is not added twice. Returns how many were new. */
    async enqueue(input: { runId: string; questions: readonly ReviewQuestion[] }): Promise<number> {
      if (input.questions.length === 0) return 0;
      const run = await prisma.run.findUnique({ where: { id: input.runId }, select: { suiteId: true } });
      if (!run) return 0;
      const { count } = await prisma.reviewItem.createMany({
        data: input.questions.map((q) => ({ suiteId: run.suiteId, runId: input.runId, resultKey: q.resultKey, evalName: q.evalName, criterion: q.criterion, reason: q.reason, detail: q.detail })),
        skipDuplicates: true,
      });
      return count;
    },

    /** The queue, oldest run first, then by eval, result and criterion, filtered; with the counts per reason (of the same state) for the filter's chips. */
    async list(filter: QueueFilter): Promise<{ items: ReviewItem[]; byReason: Partial<Record<ReviewReason, number>> }> {
      if (!UUID.test(filter.suiteId)) return { items: [], byReason: {} };
      const where = {
        suiteId: filter.suiteId,
        ...stateWhere(filter.state),
        ...(filter.reason ? { reason: filter.reason } : {}),
        ...(filter.evalName ? { evalName: filter.evalName } : {}),
        ...(filter.criterion ? { criterion: filter.criterion } : {}),
      };
      const [rows, groups] = await Promise.all([
        prisma.reviewItem.findMany({ where, orderBy: [{ createdAt: "asc" }, { evalName: "asc" }, { resultKey: "asc" }, { criterion: "asc" }, { reason: "asc" }], take: Math.min(filter.limit ?? 200, 500) }),
        prisma.reviewItem.groupBy({ by: ["reason"], where: { suiteId: filter.suiteId, ...stateWhere(filter.state) }, _count: { _all: true } }),
      ]);
      return { items: rows.map(toItem), byReason: Object.fromEntries(groups.map((g) => [g.reason, g._count._all])) };
    },

    async get(id: string): Promise<ReviewItem | undefined> {
      if (!UUID.test(id)) return undefined;
      const row = await prisma.reviewItem.findUnique({ where: { id } });
      return row ? toItem(row) : undefined;
    },

    /** Claims an item for `reviewer`: open, already theirs, or another's claim past its lease. Atomic. */
    async claim(input: { id: string; reviewer: string; now?: Date }): Promise<ClaimResult> {
      if (!UUID.test(input.id)) return { ok: false, code: "not_found" };
      const now = input.now ?? new Date();
      const { count } = await prisma.reviewItem.updateMany({
        where: {
          id: input.id,
          OR: [{ state: "open" }, { state: "claimed", claimedBy: input.reviewer }, { state: "claimed", claimedAt: { lt: new Date(now.getTime() - CLAIM_LEASE_MS) } }],
        },
        data: { state: "claimed", claimedBy: input.reviewer, claimedAt: now },
      });
      const row = await prisma.reviewItem.findUnique({ where: { id: input.id } });
      if (!row) return { ok: false, code: "not_found" };
      if (count === 1) return { ok: true, item: toItem(row) };
      if (row.state === "labelled") return { ok: false, code: "labelled" };
      return { ok: false, code: "claimed", by: row.claimedBy ?? "someone" };
    },

    /** "Ask a person" from a result page: queues a criterion of a stored result by hand. */
    async ask(input: { runId: string; resultKey: string; criterion: string; by: string; note?: string }): Promise<{ ok: true; value: ReviewItem } | { ok: false; code: "not_found"; message: string }> {
      if (!UUID.test(input.runId)) return { ok: false, code: "not_found", message: "no such run" };
      const result = await prisma.evalResultRow.findUnique({ where: { runId_resultKey: { runId: input.runId, resultKey: input.resultKey } }, select: { evalName: true, run: { select: { suiteId: true } } } });
      if (!result) return { ok: false, code: "not_found", message: "no such result in this run" };
      const note = input.note?.trim();
      const key = { runId: input.runId, resultKey: input.resultKey, criterion: input.criterion, reason: "asked" };
      const row = await prisma.reviewItem.upsert({
        where: { runId_resultKey_criterion_reason: key },
        create: { ...key, suiteId: result.run.suiteId, evalName: result.evalName, detail: `asked by ${input.by}${note ? `: ${note}` : ""}` },
        // Asked again: the item already queued (or labelled) stands.
        update: {},
      });
      return { ok: true, value: toItem(row) };
    },

    /** Gives a claim back (only its holder can). */
    async release(input: { id: string; reviewer: string }): Promise<boolean> {
      if (!UUID.test(input.id)) return false;
      const { count } = await prisma.reviewItem.updateMany({
        where: { id: input.id, state: "claimed", claimedBy: input.reviewer },
        data: { state: "open", claimedBy: null, claimedAt: null },
      });
      return count === 1;
    },
  };
}
