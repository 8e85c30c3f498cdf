import { bootstrapInterval } from "../../../stats/bootstrap";
import { krippendorffAlpha, type MeasurementLevel } from "../../../stats/krippendorff-alpha";
import type { StatResult } from "../../../stats/result";

// People as raters of one another: where an item of the review queue has two
// labels (offered to a second reviewer on purpose, at the suite's
// review.second_opinion_rate), how often and how far the people agree, per
// eval and criterion: exact agreement and Krippendorff's α with a bootstrap
// 95% interval over the items. α, not Cohen's κ, because the two people are
// not the same two on every item. Categorical answers (a category, a review's
// decision, a pair's winner, pass / fail) are nominal; scores on a scale
// (unit, likert, letter) are interval, on their 0..1 values.

export interface PersonLabel {
  itemId: string;
  evalName: string;
  criterion: string;
  reviewer: string;
  /** The label scale's kind: unit, likert, letter, boolean, category, decision, pairwise. */
  scale: string;
  value: string;
  score: number | null;
}

export interface PeopleAgreement {
  eval: string;
  item: string;
  scale: string;
  level: MeasurementLevel;
  /** Items labelled by two (or more) different people. */
  units: number;
  /** Share of those items on which the people gave the same answer. */
  exact: number;
  alpha: { value: number | null; note?: string; ci95?: { low: number; high: number } };
}

const NOMINAL = new Set(["category", "decision", "pairwise", "boolean"]);

/** Whether a queued question is offered to a second reviewer: a stable hash of its key falls below the rate (FNV-1a, so the same run queues the same items however often it is finished). */
export function offeredTwice(key: string, rate: number): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash / 2 ** 32 < rate;
}

/** Agreement between people per eval and criterion, over the items two or more different people labelled (each person's first label counts). */
export function peopleAgreement(labels: readonly PersonLabel[]): PeopleAgreement[] {
  const groups = new Map<
    string,
    { eval: string; item: string; scale: string; units: Map<string, Map<string, PersonLabel>> }
  >();
  for (const label of labels) {
    const key = `${label.evalName}\u0000${label.criterion}`;
    const group = groups.get(key) ?? {
      eval: label.evalName,
      item: label.criterion,
      scale: label.scale,
      units: new Map(),
    };
    const unit = group.units.get(label.itemId) ?? new Map<string, PersonLabel>();
    if (!unit.has(label.reviewer)) unit.set(label.reviewer, label);
    group.units.set(label.itemId, unit);
    groups.set(key, group);
  }
  const out: PeopleAgreement[] = [];
  for (const group of groups.values()) {
    const units = [...group.units.values()]
      .map((u) => [...u.values()])
      .filter((u) => u.length >= 2);
    if (units.length === 0) continue;
    const level: MeasurementLevel = NOMINAL.has(group.scale) ? "nominal" : "interval";
    const codes = [...new Set(units.flat().map((l) => l.value))].sort();
    const ratingOf = (l: PersonLabel) => (level === "nominal" ? codes.indexOf(l.value) : l.score);
    const statistic = (sample: PersonLabel[][]): StatResult =>
      krippendorffAlpha({ ratings: sample.map((u) => u.map(ratingOf)), level });
    const alpha = statistic(units);
    const ci = alpha.ok ? bootstrapInterval({ units, statistic }) : undefined;
    out.push({
      eval: group.eval,
      item: group.item,
      scale: group.scale,
      level,
      units: units.length,
      exact: units.filter((u) => u.every((l) => l.value === u[0]!.value)).length / units.length,
      alpha: alpha.ok
        ? { value: alpha.value, ...(ci ? { ci95: { low: ci.low, high: ci.high } } : {}) }
        : { value: null, note: alpha.reason },
    });
  }
  return out.sort((a, b) => a.eval.localeCompare(b.eval) || a.item.localeCompare(b.item));
}
