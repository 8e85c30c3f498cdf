// A statistic that may be undefined for the data (no pairable values, no
// variation) says so instead of returning NaN or throwing (house rule 2).

export type StatResult = { ok: true; value: number } | { ok: false; reason: string };

export const stat = (value: number): StatResult =>
  Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: "not a finite number" };
export const undefinedStat = (reason: string): StatResult => ({ ok: false, reason });

/**
 * Why α and κ are undefined when every rating is the same: one wording for both, so a table that
 * shows both says it once ("same value" and "same category" read as two reasons for one fact).
 */
export const SAME_RATINGS = "every rating is the same, so agreement cannot be told from chance";

/** Ratings: one row per unit (an item rated), one column per rater; null where a rater gave none. */
export type Ratings<T> = (T | null)[][];
