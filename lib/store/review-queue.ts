import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import type { ReviewQuestion, ReviewReason } from "../engine/trust/people/needs-person";
import { offeredTwice } from "../engine/trust/people/people-agreement";
import { askableItems } from "../engine/trust/people/review-subject";
import { reviewSettingsOf } from "../config/review-settings";
import type { PrismaClient } from "./generated/client";
import { versionNumbers } from "./version-numbers";
import {
  toItem,
  WITH_LABELLERS,
  type ClaimResult,
  type QueuedFrom,
  type QueueFilter,
  type ReviewItem,
} from "./review-item";
import { UUID } from "./uuid";

export type {
  ClaimResult,
  QueuedFrom,
  QueueFilter,
  ReviewItem,
  ReviewItemState,
} from "./review-item";

// A suite's review queue: questions for a person (review_items), filled when a
// run finishes (fill-review-queue.ts) or by hand ("Ask a person"). A reviewer
// claims an item before labelling it; the claim is one conditional UPDATE, so
// of two reviewers claiming at once exactly one gets it. A claim older than
// CLAIM_LEASE_MS can be taken over (a reviewer who walked away).

export const CLAIM_LEASE_MS = 30 * 60 * 1000;

function stateWhere(state: QueueFilter["state"]) {
  if (state === "all") return {};
  if (state === undefined || state === "pending") return { state: { in: ["open", "claimed"] } };
  return { state };
}

export function createReviewQueue(prisma: PrismaClient) {
  return {
    /**
     * Adds questions of one run to its suite's queue; a question already there (same run, result,
     * criterion, reason) is not added twice. Returns how many were new. The suite version's
     * review.second_opinion_rate picks the items offered to two people.
     */
    async enqueue(input: { runId: string; questions: readonly ReviewQuestion[] }): Promise<number> {
      if (input.questions.length === 0) return 0;
      const run = await prisma.run.findUnique({
        where: { id: input.runId },
        select: { suiteId: true, suiteVersion: { select: { yaml: true } } },
      });
      if (!run) return 0;
      const { secondOpinionRate } = reviewSettingsOf(run.suiteVersion.yaml);
      const wanted = (q: ReviewQuestion) =>
        offeredTwice(
          [input.runId, q.resultKey, q.criterion, q.reason].join("\u0000"),
          secondOpinionRate,
        )
          ? 2
          : 1;
      const { count } = await prisma.reviewItem.createMany({
        data: input.questions.map((q) => ({
          suiteId: run.suiteId,
          runId: input.runId,
          resultKey: q.resultKey,
          evalName: q.evalName,
          criterion: q.criterion,
          reason: q.reason,
          detail: q.detail,
          labelsWanted: wanted(q),
        })),
        skipDuplicates: true,
      });
      return count;
    },

    /** The queue, oldest run first, then by eval, result and criterion, filtered; with the counts per reason (of the same state) for the filter's chips. */
    async list(filter: QueueFilter): Promise<{
      items: (ReviewItem & { from: QueuedFrom })[];
      byReason: Partial<Record<ReviewReason, number>>;
    }> {
      if (!UUID.test(filter.suiteId)) return { items: [], byReason: {} };
      const where = {
        suiteId: filter.suiteId,
        ...stateWhere(filter.state),
        ...(filter.reason ? { reason: filter.reason } : {}),
        ...(filter.evalName ? { evalName: filter.evalName } : {}),
        ...(filter.criterion ? { criterion: filter.criterion } : {}),
        ...(filter.reviewer ? { labels: { none: { reviewer: filter.reviewer } } } : {}),
      };
      const [rows, groups] = await Promise.all([
        prisma.reviewItem.findMany({
          where,
          include: {
            ...WITH_LABELLERS,
            run: { select: { createdAt: true, suiteId: true, suiteVersionId: true, kind: true } },
          },
          orderBy: [
            { createdAt: "asc" },
            { evalName: "asc" },
            { resultKey: "asc" },
            { criterion: "asc" },
            { reason: "asc" },
          ],
          take: Math.min(filter.limit ?? 200, 500),
        }),
        prisma.reviewItem.groupBy({
          by: ["reason"],
          where: { suiteId: filter.suiteId, ...stateWhere(filter.state) },
          _count: { _all: true },
        }),
      ]);
      // Rows of two runs read alike but for these: which run, which version of the suite.
      const [versions, results] = await Promise.all([
        versionNumbers(
          prisma,
          rows.map((r) => r.run),
        ),
        // Two cells of one eval are two rows: each says which (the result's own name).
        prisma.evalResultRow.findMany({
          where: {
            runId: { in: [...new Set(rows.map((r) => r.runId))] },
            resultKey: { in: [...new Set(rows.map((r) => r.resultKey))] },
          },
          select: { runId: true, resultKey: true, name: true },
        }),
      ]);
      const names = new Map(results.map((r) => [`${r.runId}\u0000${r.resultKey}`, r.name]));
      return {
        items: rows.map(({ run, ...row }) => ({
          ...toItem(row),
          from: {
            createdAt: run.createdAt,
            version: versions.get(run.suiteVersionId) ?? 0,
            kind: run.kind,
            ...(names.has(`${row.runId}\u0000${row.resultKey}`)
              ? { resultName: names.get(`${row.runId}\u0000${row.resultKey}`)! }
              : {}),
          },
        })),
        byReason: Object.fromEntries(groups.map((g) => [g.reason, g._count._all])),
      };
    },

    async get(id: string): Promise<ReviewItem | undefined> {
      if (!UUID.test(id)) return undefined;
      const row = await prisma.reviewItem.findUnique({ where: { id }, include: WITH_LABELLERS });
      return row ? toItem(row) : undefined;
    },

    /** Claims an item for `reviewer`: open, already theirs, or another's claim past its lease. Atomic. */
    async claim(input: { id: string; reviewer: string; now?: Date }): Promise<ClaimResult> {
      if (!UUID.test(input.id)) return { ok: false, code: "not_found" };
      const now = input.now ?? new Date();
      const { count } = await prisma.reviewItem.updateMany({
        where: {
          id: input.id,
          OR: [
            { state: "open" },
            { state: "claimed", claimedBy: input.reviewer },
            { state: "claimed", claimedAt: { lt: new Date(now.getTime() - CLAIM_LEASE_MS) } },
          ],
          // A second opinion is a different person's.
          labels: { none: { reviewer: input.reviewer } },
        },
        data: { state: "claimed", claimedBy: input.reviewer, claimedAt: now },
      });
      const row = await prisma.reviewItem.findUnique({
        where: { id: input.id },
        include: WITH_LABELLERS,
      });
      if (!row) return { ok: false, code: "not_found" };
      const item = toItem(row);
      if (count === 1) return { ok: true, item };
      if (row.state === "labelled") return { ok: false, code: "labelled", byYou: false };
      // Open for a second opinion, but this person gave the first.
      if (item.labelledBy.includes(input.reviewer))
        return { ok: false, code: "labelled", byYou: true };
      return { ok: false, code: "claimed", by: row.claimedBy ?? "someone" };
    },

    /**
     * "Ask a person" from a result page: queues by hand one thing a person can answer about a
     * stored result (a criterion, a review's decision or category, a compared pair).
     */
    async ask(input: {
      runId: string;
      resultKey: string;
      criterion: string;
      by: string;
      note?: string;
    }): Promise<
      | { ok: true; value: ReviewItem }
      | { ok: false; code: "not_found" | "bad_request"; message: string }
    > {
      if (!UUID.test(input.runId)) return { ok: false, code: "not_found", message: "no such run" };
      const result = await prisma.evalResultRow.findUnique({
        where: { runId_resultKey: { runId: input.runId, resultKey: input.resultKey } },
        select: { evalName: true, data: true, run: { select: { suiteId: true } } },
      });
      if (!result) return { ok: false, code: "not_found", message: "no such result in this run" };
      const askable = askableItems(readStoredResult(result.data as unknown as EvalResult));
      if (!askable.includes(input.criterion))
        return {
          ok: false,
          code: "bad_request",
          message: `"${input.criterion.slice(0, 60)}" is not in this result: ask about ${askable.join(", ")}`,
        };
      const note = input.note?.trim();
      const key = {
        runId: input.runId,
        resultKey: input.resultKey,
        criterion: input.criterion,
        reason: "asked",
      };
      const row = await prisma.reviewItem.upsert({
        where: { runId_resultKey_criterion_reason: key },
        create: {
          ...key,
          suiteId: result.run.suiteId,
          evalName: result.evalName,
          detail: `asked by ${input.by}${note ? `: ${note}` : ""}`,
        },
        // Asked again: the item already queued (or labelled) stands.
        update: {},
        include: WITH_LABELLERS,
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
