import { likertFits } from "../../../config/limits";
import type { Scale } from "../../../config/types";

// The scale a person labels on: the criterion's own (unit, likert, letter,
// boolean), a category's pass / partial / fail, a review's decision (pass /
// conditional / fail), or a compared pair's winner.
// Each point has the key that picks it on the keyboard and its 0..1 value, so
// a label sits beside the judge's score and the calibration anchors.

export type LabelScaleKind =
  "unit" | "likert" | "letter" | "boolean" | "category" | "decision" | "pairwise";

export interface LabelPoint {
  /** The answer as stored and as a person reads it: "0.75", "4", "B", "pass", "A". */
  value: string;
  /** The keyboard key that picks it (a digit). */
  key: string;
  /** Its 0..1 value; null for a pairwise winner. */
  score: number | null;
}

export interface LabelScale {
  kind: LabelScaleKind;
  points: LabelPoint[];
}

/** A letter's 0..1 value: the middle of its band (format-score.ts: A ≥ 0.9, B ≥ 0.8, C ≥ 0.7, D ≥ 0.6, F below). */
const LETTER_SCORES: [string, number][] = [
  ["F", 0.3],
  ["D", 0.65],
  ["C", 0.75],
  ["B", 0.85],
  ["A", 0.95],
];

const keyed = (points: Omit<LabelPoint, "key">[], keys?: string[]): LabelPoint[] =>
  points.map((p, i) => ({ ...p, key: keys?.[i] ?? String(i + 1) }));

export function labelScaleOf(input: { rubricKind: string; scale: Scale }): LabelScale {
  if (input.rubricKind === "categories") {
    return {
      kind: "category",
      points: keyed([
        { value: "fail", score: 0 },
        { value: "partial", score: 0.5 },
        { value: "pass", score: 1 },
      ]),
    };
  }
  if (input.rubricKind === "decision") {
    // A review's decision as its decide rule scores it (human-calibration.ts: pass 1, conditional 0.5, fail 0); human_review is the question, not an answer.
    return {
      kind: "decision",
      points: keyed([
        { value: "fail", score: 0 },
        { value: "conditional", score: 0.5 },
        { value: "pass", score: 1 },
      ]),
    };
  }
  if (input.rubricKind === "pairwise") {
    return {
      kind: "pairwise",
      points: keyed([
        { value: "A", score: null },
        { value: "B", score: null },
        { value: "tie", score: null },
      ]),
    };
  }
  // A likert band past the language's bound can only be one stored before it: labelled on the unit scale, not with a button per point.
  const scale: Scale =
    input.scale.kind === "likert" && !likertFits(input.scale) ? { kind: "unit" } : input.scale;
  switch (scale.kind) {
    case "boolean":
      return {
        kind: "boolean",
        points: keyed(
          [
            { value: "fail", score: 0 },
            { value: "pass", score: 1 },
          ],
          ["0", "1"],
        ),
      };
    case "letter":
      return {
        kind: "letter",
        points: keyed(LETTER_SCORES.map(([value, score]) => ({ value, score }))),
      };
    case "likert": {
      const count = scale.max - scale.min + 1;
      const points = Array.from({ length: count }, (_, i) => ({
        value: String(scale.min + i),
        score: count > 1 ? i / (count - 1) : 1,
      }));
      // A likert point is typed as itself when every point is one digit (1..5, 0..9); else by its position.
      const ownDigits = scale.min >= 0 && scale.max <= 9;
      return {
        kind: "likert",
        points: keyed(points, ownDigits ? points.map((p) => p.value) : undefined),
      };
    }
    case "unit":
      return {
        kind: "unit",
        points: keyed([0, 0.25, 0.5, 0.75, 1].map((score) => ({ value: score.toFixed(2), score }))),
      };
  }
}

export type ParsedLabel =
  { ok: true; value: string; score: number | null } | { ok: false; message: string };

/** A person's answer read on the scale: one of its points, or on a unit scale any number in 0..1. */
export function parseLabel(scale: LabelScale, raw: string): ParsedLabel {
  const text = raw.trim();
  const point = scale.points.find((p) => p.value.toLowerCase() === text.toLowerCase());
  if (point) return { ok: true, value: point.value, score: point.score };
  if (scale.kind === "unit" && /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text)) {
    const score = Number(text);
    return { ok: true, value: score.toFixed(2), score };
  }
  const allowed =
    scale.kind === "unit" ? "a number from 0 to 1" : scale.points.map((p) => p.value).join(", ");
  return {
    ok: false,
    message: `"${text.slice(0, 40)}" is not on the ${scale.kind} scale: use ${allowed}`,
  };
}
