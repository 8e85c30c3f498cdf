import type { LabelScale } from "../../lib/engine/trust/people/label-scale";
import type { ReviewReason } from "../../lib/engine/trust/people/needs-person";
import type { JudgeSaid } from "../../lib/engine/trust/people/review-subject";

// What the review pages hand their client components: plain, serialisable
// copies of the store's rows (components never import lib/store).

export interface QueueRow {
  id: string;
  runId: string;
  /** The run it came from, as people tell runs apart: "run 2026-11-26 09:50:01 UTC · v2". */
  from: string;
  /** The result's matrix cell or dataset item ("prompt=#2"), when the eval has cells: two cells of one eval read apart. */
  cell: string | null;
  resultKey: string;
  evalName: string;
  criterion: string;
  reason: ReviewReason;
  detail: string;
  state: "open" | "claimed" | "labelled";
  claimedBy: string | null;
  /** 2 for an item offered to a second reviewer. */
  labelsWanted: number;
  /** Who labelled it so far: a second opinion is not offered to them again. */
  labelledBy: string[];
}

export interface LabelSubject {
  candidate: string;
  prompt?: string;
  /** The known-good answers and context the judge was given (reference-guided grading). */
  reference?: { expectedOutputs: string[]; context: string[] };
  asks: string;
  scale: LabelScale;
  /** The spans the judges cited: empty until the item is labelled (their evidence is part of their answer). */
  evidence: string[];
  /** The criterion's anchors in the suite (examples:), each with its 0..1 score. */
  anchors: { response: string; score: number }[];
  /** Present only for an item already labelled: the judges' verdicts are shown after a person answered. */
  verdicts?: JudgeSaid[];
}

export interface GivenLabel {
  id: string;
  reviewer: string;
  value: string;
  note: string | null;
}
