// Slows down password guessing. Each client (by its address: the socket's
// peer, or what a trusted proxy saw; `clientAddress` in request-address.ts)
// may fail 5 times in 15 minutes before it has to wait. Once all clients
// together have failed 50 times, a client that has failed too must wait as
// well (one guess per address, against guessing from many), while a client
// with no failures still logs in: a flood of wrong guesses never locks out
// the right password. The route also answers every failure after a fixed
// delay. Kept on globalThis: the proxy (bearer tokens) and the login route are
// bundled separately but run in one process, and must count together.

export interface ThrottleLimits {
  perClient: number;
  overall: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  perClient: 5,
  overall: 50,
  windowMs: 15 * 60_000,
};

export interface LoginThrottle {
  /** Seconds to wait before this client may try again, or 0. */
  retryAfterSeconds(client: string, now: number): number;
  recordFailure(client: string, now: number): void;
  recordSuccess(client: string): void;
}

export function createLoginThrottle(
  limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
): LoginThrottle {
  const failures = new Map<string, number[]>();
  let overall: number[] = [];
  const recent = (times: number[], now: number) => times.filter((t) => now - t < limits.windowMs);
  const waitFor = (times: number[], limit: number, now: number) => {
    if (times.length < limit) return 0;
    const oldest = times[times.length - limit]!;
    return Math.max(1, Math.ceil((oldest + limits.windowMs - now) / 1000));
  };
  return {
    retryAfterSeconds(client, now) {
      overall = recent(overall, now);
      const mine = recent(failures.get(client) ?? [], now);
      if (mine.length) failures.set(client, mine);
      else failures.delete(client);
      if (mine.length === 0) return 0;
      return Math.max(waitFor(mine, limits.perClient, now), waitFor(overall, limits.overall, now));
    },
    recordFailure(client, now) {
      failures.set(client, [...recent(failures.get(client) ?? [], now), now]);
      overall = [...recent(overall, now), now];
    },
    recordSuccess(client) {
      failures.delete(client);
    },
  };
}

const holder = globalThis as typeof globalThis & { __rubricStudioLoginThrottle?: LoginThrottle };

/** The process's one throttle. */
export function sharedLoginThrottle(): LoginThrottle {
  holder.__rubricStudioLoginThrottle ??= createLoginThrottle();
  return holder.__rubricStudioLoginThrottle;
}
