import type { CacheTtl } from "../ports/judge-port";

// The TTL of the rubric's shared prompt-cache prefix, from the run's expected
// length. The 5-minute entry is refreshed by every read, so it lasts while
// calls keep coming; but a run expected to last longer than that can stall
// (a rate limit's retry-after, a slow live agent) long enough to lose it, and
// then every candidate pays to write it again. A 1-hour entry costs 2× input
// once instead of 1.25×, which one such rewrite already pays for.

/** Seconds a judge call is assumed to take, for the estimate. */
export const ASSUMED_CALL_SECONDS = 8;
const FIVE_MINUTES = 300;

export function cacheTtlFor(input: { calls: number; concurrency: number }): CacheTtl {
  const expectedSeconds = (input.calls / Math.max(1, input.concurrency)) * ASSUMED_CALL_SECONDS;
  return expectedSeconds > FIVE_MINUTES ? "1h" : "5m";
}
