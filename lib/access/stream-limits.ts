// Bounds the run pages' progress streams (server-sent events). Each stream
// holds a response open and reads the run twice a second: 1,000 from one
// client raised the home page's latency from 21 ms to 1.4 s and the server's
// memory to ~1 GB. A client (by address: the socket's peer, or what a trusted
// proxy saw; `clientAddress`) may hold a few at once, a run a few dozen, the
// whole server a few hundred; the next is refused with why, and a stream's
// place is freed when it ends, whichever side ends it. Kept on globalThis, as
// the login throttle is: Next may bundle a route more than once in a process.

export interface StreamLimits {
  perClient: number;
  perRun: number;
  overall: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { perClient: 8, perRun: 32, overall: 256 };

export type StreamPlace = { ok: true; release(): void } | { ok: false; message: string };

export interface StreamCounter {
  /** A place for one more stream of `run` to `client`, or why not. Release it once, when the stream ends. */
  acquire(input: { client: string; run: string }): StreamPlace;
  /** Streams open now (for tests and diagnostics). */
  open(): number;
}

export function createStreamCounter(limits: StreamLimits = DEFAULT_STREAM_LIMITS): StreamCounter {
  const byClient = new Map<string, number>();
  const byRun = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, delta: number) => {
    const next = (map.get(key) ?? 0) + delta;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  return {
    acquire({ client, run }) {
      if ((byClient.get(client) ?? 0) >= limits.perClient)
        return {
          ok: false,
          message: `Too many progress streams from this address: at most ${limits.perClient} at once. Close other run pages (or their EventSource) and try again.`,
        };
      if ((byRun.get(run) ?? 0) >= limits.perRun)
        return {
          ok: false,
          message: `Too many progress streams for this run: at most ${limits.perRun} at once. Reload the page later to follow it.`,
        };
      if (total >= limits.overall)
        return {
          ok: false,
          message: `Too many progress streams on this server: at most ${limits.overall} at once. Try again later.`,
        };
      add(byClient, client, 1);
      add(byRun, run, 1);
      total++;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          add(byClient, client, -1);
          add(byRun, run, -1);
          total--;
        },
      };
    },
    open: () => total,
  };
}

const holder = globalThis as typeof globalThis & { __rubricStudioStreams?: StreamCounter };

/** The process's one counter of progress streams. */
export function sharedStreamCounter(): StreamCounter {
  holder.__rubricStudioStreams ??= createStreamCounter();
  return holder.__rubricStudioStreams;
}
