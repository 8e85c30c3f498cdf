import { wilsonInterval } from "../../stats/wilson-interval";
import type {
  CategoryWinner,
  JudgedPair,
  PairwiseResult,
  PairwiseWinner,
  PositionBias,
} from "../results/pairwise-types";

// Win rates as the Go package's ComputePairwiseResult computes them: over all
// comparisons, uncertain ones counting for neither side (but in the total);
// the overall winner is the side with more wins; confidence is
// |wins A - wins B| / total. Beyond Go: a Wilson 95% interval for each side's
// win rate, the judge's position-bias rate, and per-criterion winners.

export function winnerOf(winsA: number, winsB: number): PairwiseWinner {
  return winsA > winsB ? "A" : winsB > winsA ? "B" : "tie";
}

export function computePairwiseResult(pairs: Pick<JudgedPair, "winner">[]): Omit<
  PairwiseResult,
  "comparisons"
> & {
  winsA: number;
  winsB: number;
  ties: number;
  total: number;
} {
  const total = pairs.length;
  const winsA = pairs.filter((p) => p.winner === "A").length;
  const winsB = pairs.filter((p) => p.winner === "B").length;
  const ties = pairs.filter((p) => p.winner === "tie").length;
  if (total === 0)
    return {
      win_rate_a: 0,
      win_rate_b: 0,
      tie_rate: 0,
      overall_winner: "tie",
      confidence: 0,
      winsA,
      winsB,
      ties,
      total,
    };
  return {
    win_rate_a: winsA / total,
    win_rate_b: winsB / total,
    tie_rate: ties / total,
    overall_winner: winnerOf(winsA, winsB),
    confidence: Math.abs(winsA - winsB) / total,
    winsA,
    winsB,
    ties,
    total,
  };
}

export function wilsonIntervals(input: {
  winsA: number;
  winsB: number;
  total: number;
}): { a: { low: number; high: number }; b: { low: number; high: number } } | null {
  const a = wilsonInterval({ successes: input.winsA, trials: input.total });
  const b = wilsonInterval({ successes: input.winsB, trials: input.total });
  return a && b ? { a, b } : null;
}

export function positionBias(pairs: JudgedPair[]): PositionBias {
  const comparable = pairs.filter((p) => p.original !== "uncertain" && p.swapped !== "uncertain");
  const biased = comparable.filter((p) => p.positionBiased);
  return {
    rate: comparable.length > 0 ? biased.length / comparable.length : null,
    biased: biased.length,
    comparable: comparable.length,
    favoredFirst: biased.filter((p) => p.favoredPosition === "first").length,
    favoredSecond: biased.filter((p) => p.favoredPosition === "second").length,
  };
}

export function categoryWinners(input: { names: string[]; pairs: JudgedPair[] }): CategoryWinner[] {
  return input.names.map((category) => {
    const scores = input.pairs.flatMap((p) =>
      p.categoryScores.filter((c) => c.category === category),
    );
    const winsA = scores.filter((s) => s.winner === "A");
    const winsB = scores.filter((s) => s.winner === "B");
    const winner = winnerOf(winsA.length, winsB.length);
    const won = winner === "A" ? winsA : winner === "B" ? winsB : [];
    const margin =
      won.length > 0 ? won.reduce((sum, s) => sum + (s.margin ?? 0), 0) / won.length : 0;
    return {
      category,
      winsA: winsA.length,
      winsB: winsB.length,
      ties: scores.filter((s) => s.winner === "tie").length,
      winner,
      margin,
    };
  });
}

export interface WinRateBar {
  side: "A" | "B" | "tie";
  /** The side's label (labels.a / labels.b), or "tie". */
  label: string;
  count: number;
  rate: number;
  /** Wilson 95% interval of the rate; null without pairs. */
  ci95: { low: number; high: number } | null;
}

/** Win rates of A, B and ties over a comparison's pairs, each with its Wilson 95% interval: what the pairwise chart draws. */
export function winRateBars(input: {
  pairs: Pick<JudgedPair, "winner">[];
  labels: { a: string; b: string };
}): WinRateBar[] {
  const s = computePairwiseResult(input.pairs);
  const bar = (
    side: WinRateBar["side"],
    label: string,
    count: number,
    rate: number,
  ): WinRateBar => ({
    side,
    label,
    count,
    rate,
    ci95: wilsonInterval({ successes: count, trials: s.total }) ?? null,
  });
  return [
    bar("A", input.labels.a, s.winsA, s.win_rate_a),
    bar("B", input.labels.b, s.winsB, s.win_rate_b),
    bar("tie", "tie", s.ties, s.tie_rate),
  ];
}
