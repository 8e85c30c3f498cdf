import { BATCH_PRICE_FACTOR } from "../engine/cost/cost";
import { formatUsd } from "../engine/results/format-score";
import type { BatchLedger, BatchProgress, BatchRoundsOptions } from "../judge/batch-rounds";
import type { Settings } from "../env/read-env";
import { createBatchJudge } from "../judge/batch-judge";
import { createMessageBatchesClient } from "../judge/message-batches-client";
import type { WorkerOptions } from "../store/run-worker";

// `--batch` on the command line: the judge's requests go through Message
// Batches (lib/judge/batch-judge.ts), the budget and the projections count
// batch prices, and each batch's progress is said on stderr when it changes.

/** The API's limit of a batch's size. */
const BATCH_MAX_BYTES = 256 * 1024 * 1024;

/** The batch options of the provider judge: polling, the run's ledger, progress lines on stderr. */
export function batchOptions(input: {
  pollSeconds: number;
  /** Where progress lines and warnings go (stderr). */
  say: (text: string) => void;
  ledger?: BatchLedger;
  signal?: AbortSignal;
  /**
   * The judge calls in progress, counted around the whole judge (countOutstanding): a round closes
   * when all of them wait in it.
   */
  outstanding?: () => number;
  /** Requests per batch at most (RUBRIC_STUDIO_BATCH_MAX_REQUESTS; default the API's limit). */
  maxRequests?: number;
}): Omit<BatchRoundsOptions, "client"> {
  const said = new Map<string, string>();
  return {
    pollMs: input.pollSeconds * 1000,
    ...(input.ledger ? { ledger: input.ledger } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.outstanding ? { outstanding: input.outstanding } : {}),
    ...(input.maxRequests !== undefined
      ? { limits: { requests: input.maxRequests, bytes: BATCH_MAX_BYTES } }
      : {}),
    onProblem: (message) => input.say(`warning: ${message}\n`),
    onProgress: (progress) => {
      const line = progressLine(progress);
      if (said.get(progress.id) === line) return;
      said.set(progress.id, line);
      input.say(`${line}\n`);
    },
  };
}

export function progressLine(p: BatchProgress): string {
  const { counts } = p;
  const more = [
    counts.canceled ? `${counts.canceled} canceled` : "",
    counts.processing ? `${counts.processing} processing` : "",
  ].filter(Boolean);
  return `batch ${p.id}: ${p.status}, ${p.submitted} submitted, ${counts.succeeded} succeeded, ${counts.errored} errored, ${counts.expired} expired${more.length ? `, ${more.join(", ")}` : ""}`;
}

/** `eval --explain --batch`: the projected cost with the cache at standard prices against batch prices. */
export function batchSavingLine(standardUsd: number): string {
  const batched = standardUsd * BATCH_PRICE_FACTOR;
  return `With --batch: ~${formatUsd(batched)} instead of ~${formatUsd(standardUsd)} at standard prices (saves ~${formatUsd(standardUsd - batched)}); results may take up to 24 h.`;
}
