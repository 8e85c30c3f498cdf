import { describe, expect, it } from "vitest";
import {
  etaText,
  formatEta,
  nextEta,
  progressFraction,
  rawEta,
  smoothEta,
  type EtaEstimate,
  type EtaState,
  type ProgressSample,
} from "../../../components/results/run-eta";

// The run page's progress and ETA (issue 12, item 3): progress counts judge
// calls, not only results, and the ETA a person watches comes down steadily:
// never negative, never leaping up when a slow wave of calls lands.

const sample = (over: Partial<ProgressSample>): ProgressSample => ({
  finished: false,
  done: 0,
  total: 5,
  calls: { done: 0, planned: 36 },
  elapsedSeconds: 10,
  ...over,
});

describe("progress", () => {
  it("counts judge calls: one eval of 36 calls, 18 made, is half way though no result has landed", () => {
    expect(progressFraction(sample({ done: 0, total: 1, calls: { done: 18, planned: 36 } }))).toBe(
      0.5,
    );
  });

  it("falls back to results when the plan's calls are not known, and is whole only once finished", () => {
    expect(progressFraction(sample({ done: 2, total: 4, calls: { done: 0, planned: null } }))).toBe(
      0.5,
    );
    expect(progressFraction(sample({ done: 4, total: 4, calls: { done: 36, planned: 36 } }))).toBe(
      0.99,
    );
    expect(progressFraction(sample({ finished: true, done: 1, total: 4 }))).toBe(1);
  });

  it("has no ETA before anything landed, while queued, or once finished", () => {
    expect(rawEta(sample({}))).toBeNull();
    expect(rawEta(sample({ calls: { done: 3, planned: 36 }, elapsedSeconds: null }))).toBeNull();
    expect(rawEta(sample({ finished: true, calls: { done: 36, planned: 36 } }))).toBeNull();
    expect(rawEta(sample({ calls: { done: 9, planned: 36 }, elapsedSeconds: 10 }))).toBe(30);
    // One call of 36 is too little to project the whole run from.
    expect(rawEta(sample({ calls: { done: 1, planned: 36 }, elapsedSeconds: 5 }))).toBeNull();
  });
});

describe("the ETA shown", () => {
  it("comes down steadily through waves of calls, never negative, never jumping up by a large factor", () => {
    // A run of 40 calls, 8 at a time, each wave taking 3 s: progress moves in steps every 3 s, sampled every half second.
    let estimate: EtaEstimate | null = null;
    const shown: number[] = [];
    for (let t = 0.5; t <= 15; t += 0.5) {
      const done = Math.min(40, Math.floor(t / 3) * 8);
      estimate = smoothEta(
        estimate,
        rawEta(sample({ total: 40, done, calls: { done, planned: 40 }, elapsedSeconds: t })),
        t * 1000,
      );
      if (estimate) shown.push(estimate.seconds);
    }
    expect(shown.length).toBeGreaterThan(10);
    for (const s of shown) expect(s).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < shown.length; i++)
      expect(shown[i]!, `step ${i}: ${shown.join(", ")}`).toBeLessThanOrEqual(
        shown[i - 1]! * 1.25 + 3,
      );
    expect(shown.at(-1)!).toBeLessThan(shown[0]!);
  });

  it("does not overestimate early: a slow start (the queue, the cache-warming first call) is left out of the pace", () => {
    // 145 calls, 8 at a time, 2 s each; 3 s in the queue, then the first call alone (warming the prompt cache), then waves of 8.
    const callsAt = (t: number) => (t < 5 ? 0 : Math.min(145, 1 + 8 * Math.floor((t - 5) / 2)));
    const end = 5 + 2 * Math.ceil(144 / 8);
    let state: EtaState | null = null;
    let firstShownAt: number | null = null;
    for (let t = 0.5; t < end; t += 0.5) {
      const done = callsAt(t);
      state = nextEta(
        state,
        sample({
          total: 36,
          done: Math.floor(done / 4),
          calls: { done, planned: 145 },
          elapsedSeconds: t,
        }),
        t * 1000,
      );
      if (!state.estimate) continue;
      firstShownAt ??= t;
      const left = end - t;
      expect(
        state.estimate.seconds,
        `at ${t} s: ${state.estimate.seconds.toFixed(1)} s shown, ${left} s left`,
      ).toBeLessThanOrEqual(left * 1.5 + 5);
    }
    // An estimate shows within the first quarter of the run.
    expect(firstShownAt).not.toBeNull();
    expect(firstShownAt!).toBeLessThan(end / 4);
  });

  it("counts down between updates rather than standing still, and does not go below zero", () => {
    const first = smoothEta(null, 20, 0)!;
    expect(smoothEta(first, 20, 5000)!.seconds).toBeLessThan(20);
    expect(smoothEta({ seconds: 2, at: 0 }, 0, 10_000)!.seconds).toBe(0);
  });

  it("a stall raises it gradually, not by the raw estimate's leap", () => {
    const calm = { seconds: 10, at: 0 };
    expect(smoothEta(calm, 300, 500)!.seconds).toBeLessThanOrEqual(10 * 1.25 + 3);
  });

  it("reads as minutes and seconds", () => {
    expect(formatEta(null)).toBe("—");
    expect(formatEta(42.4)).toBe("42 s");
    expect(formatEta(125)).toBe("2 min 5 s");
  });

  // A dashboard walk: "ETA 0 s" stood for ~6 s while the run's last call was still pending.
  it("reads 'finishing…', not 'ETA 0 s', once it rounds to zero while the run still runs", () => {
    expect(etaText(0)).toBe("finishing…");
    expect(etaText(0.4)).toBe("finishing…");
    expect(etaText(0.6)).toBe("ETA 1 s");
    expect(etaText(42.4)).toBe("ETA 42 s");
    expect(etaText(null)).toBe("ETA —");
  });
});
