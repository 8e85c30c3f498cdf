import { useSyncExternalStore } from "react";

// What the run's live snapshot says has landed, shared between the header
// (run-live.tsx, which reads the progress stream) and the table, which the
// server renders and a refresh brings up to date: until it does, the table
// knows results exist and does not say "No results match".

const landed = new Map<string, number>();
const listeners = new Set<() => void>();

export function publishLanded(runId: string, done: number): void {
  if (landed.get(runId) === done) return;
  landed.set(runId, done);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Results the run's snapshot counts so far (0 before the stream said any). */
export function useLanded(runId: string): number {
  return useSyncExternalStore(
    subscribe,
    () => landed.get(runId) ?? 0,
    () => 0,
  );
}

/**
 * When to refresh the server-rendered table and heatmap: null when the
 * snapshot's results done are those of the last refresh, else in how many ms
 * (0: now), so that refreshes are at most `everyMs` apart.
 */
export function refreshDelay(
  last: { done: number; at: number },
  done: number,
  now: number,
  everyMs: number,
): number | null {
  if (done === last.done) return null;
  return Math.max(0, last.at + everyMs - now);
}

/**
 * The empty table's text: "No results match" only when a filter (status, name, a heatmap cell)
 * left nothing; with none, results not graded yet, or on their way while the snapshot counts some.
 */
export function emptyResultsText(input: {
  filtered: boolean;
  cell: boolean;
  landed: number;
}): string {
  if (input.filtered || input.cell)
    return "No results match. Clear the filters to see every result.";
  if (input.landed > 0)
    return `${input.landed === 1 ? "1 result has" : `${input.landed} results have`} landed; loading them…`;
  // Nothing was asked to match: a queued run, or one whose first calls are in flight.
  return "No results yet. They appear here as they are graded.";
}
