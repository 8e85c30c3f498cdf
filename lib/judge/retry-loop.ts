import type { JudgeCallContext, JudgeSlot } from "../engine/ports/judge-port";
import { backoffMs, classifyFailure, type AttemptFailure, type SdkErrors } from "./retry-policy";

// The retry loop every provider adapter shares (the Anthropic Messages API,
// OpenAI-compatible Chat Completions): 429, 529, 5xx, timeouts and connection
// errors are retried, honouring retry-after, and the concurrency slot is given
// back while a retry waits. The SDKs' own retries are off.

export interface RetryLoopOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** The error classes of the SDK the attempts call; default Anthropic's. */
  sdkErrors?: SdkErrors;
}

export const DEFAULT_MAX_RETRIES = 4;

export type Attempted<T> =
  { ok: true; value: T } | { ok: false; failure: AttemptFailure; attempts: number };

export interface RetryLoop {
  /**
   * Runs `attempt` until it succeeds, fails for good or runs out of retries;
   * counts attempts in `state`; returns holding the slot. Never throws for API trouble.
   * `attempt` is given a signal of its own per attempt (or none when the call has none).
   */
  run<T>(
    attempt: (signal: AbortSignal | undefined) => Promise<T>,
    state: { attempts: number },
    context: JudgeCallContext,
  ): Promise<Attempted<T>>;
}

export function createRetryLoop(options: RetryLoopOptions): RetryLoop {
  const { sleep } = options;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  async function run<T>(
    attempt: (signal: AbortSignal | undefined) => Promise<T>,
    state: { attempts: number },
    { slot, signal }: JudgeCallContext,
  ): Promise<Attempted<T>> {
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) return { ok: false, failure: aborted(), attempts: retry };
      state.attempts++;
      // The SDK listens to the signal it is given; it gets one of its own per attempt, so that
      // however many calls of a run are in flight or waiting, the run's signal has one listener.
      const own = new AbortController();
      const unfollow = signal ? followAbort(signal, () => own.abort()) : undefined;
      try {
        return { ok: true, value: await attempt(signal ? own.signal : undefined) };
      } catch (error) {
        const failure = classifyFailure(error, now, options.sdkErrors);
        if (!failure.retryable || retry >= maxRetries)
          return { ok: false, failure, attempts: retry + 1 };
        unfollow?.();
        await waitWithoutSlot(failure.retryAfterMs ?? backoffMs(retry, random), slot, signal);
      } finally {
        unfollow?.();
      }
    }
  }

  async function waitWithoutSlot(
    ms: number,
    slot: JudgeSlot,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    slot.release();
    try {
      await (sleep ? abortable(sleep(ms), signal) : sleepUnlessAborted(ms, signal));
    } finally {
      // Taken again even after an abort: the caller releases the slot when its call returns.
      await slot.acquire();
    }
  }

  return { run };
}

function aborted(): AttemptFailure {
  return { kind: "request", retryable: false, status: "aborted", message: "the call was aborted" };
}

// One "abort" listener per signal, whatever the number of followers: a run's
// signal is shared by every call of the run, and with retries after 529s
// many calls wait or are in flight at once (Node warns past 10 listeners).
const followers = new WeakMap<AbortSignal, { listener: () => void; set: Set<() => void> }>();

/** Calls `onAbort` when `signal` aborts; the returned function stops following (idempotent). */
function followAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let entry = followers.get(signal);
  if (!entry) {
    const set = new Set<() => void>();
    const listener = () => {
      followers.delete(signal);
      for (const follower of set) follower();
    };
    entry = { listener, set };
    followers.set(signal, entry);
    signal.addEventListener("abort", listener, { once: true });
  }
  const mine = entry;
  const follower = () => onAbort();
  mine.set.add(follower);
  return () => {
    if (!mine.set.delete(follower) || mine.set.size > 0) return;
    // The last follower left: the signal keeps no listener of ours.
    signal.removeEventListener("abort", mine.listener);
    if (followers.get(signal) === mine) followers.delete(signal);
  };
}

/** A timer that is cleared on abort, so that an aborted run leaves no long retry-after timers behind. */
function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const unfollow = signal
      ? followAbort(signal, () => {
          clearTimeout(timer);
          resolve();
        })
      : undefined;
    const timer = setTimeout(() => {
      unfollow?.();
      resolve();
    }, ms);
  });
}

/** Resolves when `promise` does or the signal aborts, whichever comes first. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const unfollow = followAbort(signal, () => resolve());
    promise.then(
      () => {
        unfollow();
        resolve();
      },
      (error: unknown) => {
        unfollow();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
