import { badgeReason } from "../results/status-badge";

// One wording and one order for an anchor's verdict, in the Anchors panel and
// inline in the editor: the label first, then the judge's score (as the
// calibration view's columns and its scatter's x and y read).

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

/** How an anchor's verdict is drawn: off its label (red), never read by the judge (grey), or within (green). */
export function anchorTone(anchor: {
  judged: number | null;
  outlier: boolean;
}): "off" | "unchecked" | "ok" {
  return anchor.outlier ? "off" : anchor.judged === null ? "unchecked" : "ok";
}

/** What follows an anchor's scores: "· off", "· not checked", or nothing. */
export function anchorMark(anchor: { judged: number | null; outlier: boolean }): string {
  const tone = anchorTone(anchor);
  return tone === "off" ? " · off" : tone === "unchecked" ? " · not checked" : "";
}

export function anchorScores(anchor: { label: number; judged: number | null }): string {
  return `labelled ${fixed(anchor.label)} · judged ${fixed(anchor.judged)}`;
}

interface Checked {
  judged: number | null;
  outlier: boolean;
  reasoning?: string;
}

/** Why an anchor was not checked, without the stored "deferred: " the word "not checked" already says. */
export function uncheckedReason(anchor: Checked): string {
  return badgeReason({ status: "deferred", reason: anchor.reasoning ?? "" });
}

/**
 * The panel's one line on a check: how many anchors are off, and how many could not be checked
 * (no key for a judge model's provider, say): an anchor the judge never read is not "within" its
 * label. When every unchecked anchor has the same reason it is said here, once, and not on each.
 */
export function anchorsSummary(anchors: readonly Checked[]): {
  text: string;
  sharedReason?: string;
} {
  const unchecked = anchors.filter((a) => a.judged === null);
  const checked = anchors.length - unchecked.length;
  const off = anchors.filter((a) => a.outlier).length;
  const reasons = new Set(unchecked.map(uncheckedReason));
  const sharedReason = reasons.size === 1 ? [...reasons][0] || undefined : undefined;
  const within =
    off === 0
      ? `${checked === anchors.length ? "all" : `the ${checked} checked all`} within ±0.25 of their labels`
      : `${off}${checked === anchors.length ? "" : ` of the ${checked} checked`} off by more than ±0.25`;
  const notChecked =
    unchecked.length === 0
      ? ""
      : `${unchecked.length === anchors.length ? "none checked" : `${unchecked.length} not checked`}${sharedReason ? `: ${sharedReason}` : ""}`;
  const text =
    checked === 0 ? `${notChecked}.` : notChecked ? `${within}; ${notChecked}.` : `${within}.`;
  return sharedReason ? { text, sharedReason } : { text };
}
