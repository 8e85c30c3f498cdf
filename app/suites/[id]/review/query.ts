import * as z from "zod";
import type { QueueRow } from "@/components/review/review-types";
import { REVIEW_REASONS } from "@/lib/engine/trust/people/needs-person";
import { formatTime, splitCellName } from "@/components/results/format";
import type { QueuedFrom, ReviewItem } from "@/lib/store/review-queue";

// The queue's filters as they travel in the URL (the queue page and the
// labelling page, whose J / K follow the same filtered queue).

const Query = z.object({
  reason: z.enum(REVIEW_REASONS).optional().catch(undefined),
  eval: z.string().min(1).max(500).optional().catch(undefined),
  criterion: z.string().min(1).max(500).optional().catch(undefined),
});

export type QueueQuery = z.infer<typeof Query>;

export function parseQueueQuery(params: Record<string, string | string[] | undefined>): QueueQuery {
  const one = (key: string) => (typeof params[key] === "string" ? params[key] : undefined);
  return Query.parse({ reason: one("reason"), eval: one("eval"), criterion: one("criterion") });
}

export function queueQueryString(query: QueueQuery, change: Partial<QueueQuery> = {}): string {
  const merged = { ...query, ...change };
  const params = new URLSearchParams();
  for (const key of ["reason", "eval", "criterion"] as const)
    if (merged[key]) params.set(key, merged[key]!);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const storeFilter = (query: QueueQuery) => ({
  ...(query.reason ? { reason: query.reason } : {}),
  ...(query.eval ? { evalName: query.eval } : {}),
  ...(query.criterion ? { criterion: query.criterion } : {}),
});

/** Which run a row came from: when, and the suite version it graded (two runs' rows otherwise read the same). */
export const queuedFromText = (from: QueuedFrom): string =>
  `${from.kind === "calibration" ? "calibration" : "run"} ${formatTime(from.createdAt)} · v${from.version}`;

export const toQueueRow = (i: ReviewItem & { from: QueuedFrom }): QueueRow => ({
  id: i.id,
  runId: i.runId,
  from: queuedFromText(i.from),
  // The eval with its matrix cell or dataset item, on a line of its own, as the results table shows it.
  cell: splitCellName(i.from.resultName ?? i.evalName).cell,
  resultKey: i.resultKey,
  evalName: i.evalName,
  criterion: i.criterion,
  reason: i.reason,
  detail: i.detail,
  state: i.state,
  claimedBy: i.claimedBy,
  labelsWanted: i.labelsWanted,
  labelledBy: i.labelledBy,
});
