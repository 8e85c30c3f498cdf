import { describe, expect, it } from "vitest";
import { combineOrders, swapWinner } from "../../../lib/engine/pairwise/map-verdicts";
import { computePairwiseResult, winRateBars } from "../../../lib/engine/pairwise/pairwise-result";
import { createFakeJudge, type FakeAnswer } from "../../support/fake-judge";
import { runOne } from "../../support/run-yaml";
import type { JudgeRequest, VerdictKind } from "../../../lib/engine/ports/judge-port";
import type { PairwiseWinner } from "../../../lib/engine/results/pairwise-types";

// Pairwise comparisons: both orders always, the swapped verdict mapped back,
// position bias flagged and counted, win rates by the Go formula.

describe("mapping the swapped order back", () => {
  it("swaps A and B and leaves tie and uncertain alone", () => {
    expect(["A", "B", "tie", "uncertain"].map((w) => swapWinner(w as PairwiseWinner))).toEqual([
      "B",
      "A",
      "tie",
      "uncertain",
    ]);
  });

  // original verdict (A first), swapped verdict as the judge gave it (B first) -> combined
  it.each([
    ["A", "B", "A", false, undefined],
    ["B", "A", "B", false, undefined],
    ["tie", "tie", "tie", false, undefined],
    ["A", "A", "tie", true, "first"],
    ["B", "B", "tie", true, "second"],
    ["A", "tie", "tie", true, undefined],
    ["tie", "A", "tie", true, undefined],
    ["A", "uncertain", "uncertain", false, undefined],
    ["uncertain", "uncertain", "uncertain", false, undefined],
  ] as const)(
    "original %s, swapped %s -> %s (biased %s, favours %s)",
    (original, swapped, winner, biased, favoured) => {
      const combined = combineOrders(original, swapped);
      expect(combined.winner).toBe(winner);
      expect(combined.positionBiased).toBe(biased);
      expect(combined.favoredPosition).toBe(favoured);
    },
  );
});

describe("the Go ComputePairwiseResult formula", () => {
  it("rates over every comparison, uncertain counted for neither side; confidence |A - B| / total", () => {
    const winners: PairwiseWinner[] = ["A", "B", "B", "tie", "uncertain", "B"];
    const result = computePairwiseResult(winners.map((winner) => ({ winner })));
    expect(result).toMatchObject({
      win_rate_a: 1 / 6,
      win_rate_b: 3 / 6,
      tie_rate: 1 / 6,
      overall_winner: "B",
      confidence: 2 / 6,
    });
  });
  it("an even split is a tie with confidence 0", () => {
    expect(computePairwiseResult([{ winner: "A" }, { winner: "B" }])).toMatchObject({
      overall_winner: "tie",
      confidence: 0,
    });
  });
});

const suite = (extra = "") => `
evals:
  - name: summaries
    rubric:
      criteria:
        - { name: accuracy, description: "States only facts in the source." }
        - { name: brevity, description: "Says it in fewer words." }
    compare:
      labels: { a: v1, b: v2 }
${extra}      items:
        - { input: "Summarise the outage.", output_a: "OLD-1", output_b: "NEW-1" }
        - { input: "Summarise the release.", output_a: "OLD-2", output_b: "NEW-2" }
        - { input: "Summarise the incident.", output_a: "OLD-3", output_b: "NEW-3" }
        - { input: "Summarise the roadmap.", output_a: "OLD-4", output_b: "NEW-4" }
`;

const first = (request: JudgeRequest<VerdictKind>) =>
  /<response_a>\n(.*)\n/.exec(request.candidatePrompt)![1]!;
const pick = (
  winner: PairwiseWinner,
  scores: [PairwiseWinner, PairwiseWinner] = [winner, winner],
): FakeAnswer => ({
  verdict: {
    reasoning: `picked ${winner}`,
    winner,
    confidence: 0.8,
    category_scores: [
      { category: "accuracy", winner: scores[0], margin: 0.6, reasoning: "a" },
      { category: "brevity", winner: scores[1], margin: 0.2, reasoning: "b" },
    ],
  },
});

describe("a pairwise eval", () => {
  it("a judge that always prefers whichever output comes first: every pair flagged position-biased, no winner", async () => {
    const judge = createFakeJudge(() => pick("A"));
    const result = await runOne(suite(), { judge });
    expect(judge.requests).toHaveLength(8);
    // Each pair asked twice, once with each output first.
    expect(judge.requests.map(first).sort()).toEqual([
      "NEW-1",
      "NEW-2",
      "NEW-3",
      "NEW-4",
      "OLD-1",
      "OLD-2",
      "OLD-3",
      "OLD-4",
    ]);
    const p = result.pairwise!;
    expect(
      p.pairs.every((x) => x.positionBiased && x.favoredPosition === "first" && x.winner === "tie"),
    ).toBe(true);
    expect(p.positionBias).toEqual({
      rate: 1,
      biased: 4,
      comparable: 4,
      favoredFirst: 4,
      favoredSecond: 0,
    });
    expect(p.result).toMatchObject({
      win_rate_a: 0,
      win_rate_b: 0,
      tie_rate: 1,
      overall_winner: "tie",
      confidence: 0,
    });
    expect(result.reason).toContain(
      "position bias in 4 of 4 pairs (100%, favouring the first slot)",
    );
    expect(result.status).toBe("passed");
  });

  it("a consistent judge that prefers v2: B wins 4 of 4, a Wilson interval, per-criterion winners with margins", async () => {
    // B is v2 (NEW-*): the judge names whichever slot holds NEW.
    const judge = createFakeJudge((request) =>
      first(request).startsWith("NEW") ? pick("A", ["A", "B"]) : pick("B", ["B", "A"]),
    );
    const result = await runOne(suite("      expect: B\n"), { judge });
    const p = result.pairwise!;
    expect(p.positionBias).toMatchObject({ rate: 0, biased: 0, comparable: 4 });
    expect(p.result).toMatchObject({
      win_rate_a: 0,
      win_rate_b: 1,
      overall_winner: "B",
      confidence: 1,
    });
    // Wilson for 4 of 4, by hand: (1 + z²/8 - z·sqrt(z²/64)) / (1 + z²/4) = 0.5101 with z = 1.96; the upper limit is 1.
    expect(p.wilson!.b.low).toBeCloseTo(0.5101, 4);
    expect(p.wilson!.b.high).toBe(1);
    expect(p.categories).toEqual([
      { category: "accuracy", winsA: 0, winsB: 4, ties: 0, winner: "B", margin: 0.6 },
      { category: "brevity", winsA: 4, winsB: 0, ties: 0, winner: "A", margin: 0.2 },
    ]);
    expect(p.result.comparisons[0]).toMatchObject({
      output_a: "OLD-1",
      output_b: "NEW-1",
      winner: "B",
      metadata: { original_winner: "B", swapped_winner: "A", position_biased: false },
    });
    expect(result.status).toBe("passed");
    expect(result.score).toBe(1);
    expect(result.display).toBe("v1 0% · v2 100% · tie 0%");
  });

  it("expect: A when B wins fails the eval, saying so", async () => {
    const judge = createFakeJudge((request) =>
      first(request).startsWith("NEW") ? pick("A") : pick("B"),
    );
    const result = await runOne(suite("      expect: A\n"), { judge });
    expect(result.status).toBe("failed");
    expect(result.reason).toBe("B (v2) wins 4 of 4, confidence 1.00; expected A (v1) to win");
  });

  it("a judge error in either order is a judge_error, never a winner", async () => {
    const judge = createFakeJudge((request) =>
      first(request) === "NEW-3" ? { error: "malformed" } : pick("B"),
    );
    const result = await runOne(suite(), { judge });
    expect(result.status).toBe("judge_error");
    expect(result.reason).toContain("pair 3 (B first)");
  });
});

describe("win-rate bars for the pairwise chart", () => {
  it("A, B and tie with their Wilson 95% intervals (Newcombe 1998: 81 of 263 is 0.2553 to 0.3662; 0 of n is 0 to z²/(n+z²))", () => {
    const winners: PairwiseWinner[] = [
      ...Array<PairwiseWinner>(81).fill("A"),
      ...Array<PairwiseWinner>(182).fill("B"),
    ];
    const [a, b, tie] = winRateBars({
      pairs: winners.map((winner) => ({ winner })),
      labels: { a: "v1", b: "v2" },
    });
    expect(a).toMatchObject({ side: "A", label: "v1", count: 81 });
    expect(a!.ci95!.low).toBeCloseTo(0.2553, 4);
    expect(a!.ci95!.high).toBeCloseTo(0.3662, 4);
    expect(b).toMatchObject({ side: "B", label: "v2", count: 182, rate: 182 / 263 });
    expect(tie).toMatchObject({ side: "tie", count: 0, rate: 0 });
    expect(tie!.ci95!.low).toBe(0);
    expect(tie!.ci95!.high).toBeCloseTo(1.959964 ** 2 / (263 + 1.959964 ** 2), 6);
  });

  it("has no intervals without pairs", () => {
    expect(winRateBars({ pairs: [], labels: { a: "A", b: "B" } }).map((bar) => bar.ci95)).toEqual([
      null,
      null,
      null,
    ]);
  });
});
