import type { PairwiseCategoryScore, PairwiseWinner } from "../results/pairwise-types";

// Every pair is judged twice: A first, then B first. The second verdict is
// mapped back to the original order (its "A" is our B). The rule that
// combines them (as MT-Bench's swap-position check, Zheng et al. 2023,
// "Judging LLM-as-a-Judge"): a winner counts only when both orders agree.
// - both definite (A, B or tie) and equal        -> that verdict
// - both definite and different                  -> tie, flagged position-biased
// - either order uncertain                       -> uncertain (Go ignores it), not flagged
// A biased pair whose two verdicts chose the same slot tells which slot the
// judge favours: "first" (A, A) or "second" (B, B).

export function swapWinner(winner: PairwiseWinner): PairwiseWinner {
  return winner === "A" ? "B" : winner === "B" ? "A" : winner;
}

export interface CombinedVerdict {
  swappedMapped: PairwiseWinner;
  winner: PairwiseWinner;
  positionBiased: boolean;
  favoredPosition?: "first" | "second";
}

export function combineOrders(original: PairwiseWinner, swapped: PairwiseWinner): CombinedVerdict {
  const swappedMapped = swapWinner(swapped);
  if (original === "uncertain" || swapped === "uncertain")
    return { swappedMapped, winner: "uncertain", positionBiased: false };
  if (original === swappedMapped) return { swappedMapped, winner: original, positionBiased: false };
  const favoredPosition =
    original === "A" && swapped === "A"
      ? "first"
      : original === "B" && swapped === "B"
        ? "second"
        : undefined;
  return {
    swappedMapped,
    winner: "tie",
    positionBiased: true,
    ...(favoredPosition ? { favoredPosition } : {}),
  };
}

/** Per criterion, the same rule; the margin is the mean of both orders' when they agree, 0 for a tie forced by bias. */
export function combineCategoryScores(input: {
  names: string[];
  original: PairwiseCategoryScore[];
  swapped: PairwiseCategoryScore[];
}): PairwiseCategoryScore[] {
  const find = (list: PairwiseCategoryScore[], name: string) =>
    list.find((c) => c.category.trim().toLowerCase() === name.toLowerCase());
  return input.names.flatMap((name) => {
    const a = find(input.original, name);
    const b = find(input.swapped, name);
    if (!a || !b) return [];
    const combined = combineOrders(a.winner, b.winner);
    const margin = combined.positionBiased ? 0 : ((a.margin ?? 0) + (b.margin ?? 0)) / 2;
    return [
      {
        category: name,
        winner: combined.winner,
        margin,
        ...(a.reasoning ? { reasoning: a.reasoning } : {}),
      },
    ];
  });
}
