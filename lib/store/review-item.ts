import { detailBeforeLabel, type ReviewReason } from "../engine/trust/people/needs-person";

// An item of a suite's review queue as the queue hands it out, and the row it
// is read from (with who labelled it so far). review-queue.ts reads and
// writes them.

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
  /**
   * 2 for an item offered to a second reviewer on purpose; it stays open after its first label, for
   * a different person.
   */
  labelsWanted: number;
  /** Who labelled it so far. */
  labelledBy: string[];
}

/** The run a queued item came from, as the queue names it: when it was made, which suite version it graded, eval or calibration. */
export interface QueuedFrom {
  createdAt: Date;
  /** v1 the suite's oldest version. */
  version: number;
  kind: string;
  /** The result's name as every view names it, its matrix cell or dataset item with it ("refusal [prompt=#2]"); absent for a calibration item. */
  resultName?: string;
}

export interface QueueFilter {
  suiteId: string;
  reason?: ReviewReason;
  evalName?: string;
  criterion?: string;
  /** Default: items not labelled yet (open or claimed). */
  state?: ReviewItemState | "pending" | "all";
  /** Leaves out the items this person labelled already (a second opinion waits for someone else). */
  reviewer?: string;
  limit?: number;
}

export type ClaimResult =
  | { ok: true; item: ReviewItem }
  | { ok: false; code: "not_found" }
  | { ok: false; code: "claimed"; by: string }
  | { ok: false; code: "labelled"; byYou: boolean };

export type ItemRow = Omit<ReviewItem, "reason" | "state" | "labelledBy"> & {
  reason: string;
  state: string;
  labels: { reviewer: string }[];
};
export const WITH_LABELLERS = {
  labels: { select: { reviewer: true }, orderBy: { createdAt: "asc" as const } },
};

export const toItem = ({ labels, ...row }: ItemRow): ReviewItem => ({
  ...row,
  // Items queued before their detail was neutral said what the judges answered (who passed, which output each chose, the suite's label): never shown before a person answers.
  detail: detailBeforeLabel(row.reason as ReviewReason, row.detail),
  reason: row.reason as ReviewReason,
  state: row.state as ReviewItemState,
  labelledBy: labels.map((l) => l.reviewer),
});
