import type { AccessPolicy } from "./access-policy";
import { secretMatches } from "./check-secret";
import type { LoginThrottle } from "./login-throttle";

// A login attempt against the server's password, through the throttle. The
// route turns the outcome into a session cookie or an answer.

export type LoginOutcome =
  | { ok: true }
  | { ok: false; code: "wrong_password"; message: string }
  | { ok: false; code: "too_many_attempts"; message: string; retryAfterSeconds: number }
  | { ok: false; code: "no_login"; message: string };

export function attemptLogin(input: {
  password: string;
  policy: AccessPolicy;
  throttle: LoginThrottle;
  client: string;
  now: number;
}): LoginOutcome {
  const { policy, throttle, client, now } = input;
  if (!policy.loginRequired || policy.password === undefined)
    return {
      ok: false,
      code: "no_login",
      message: "This dashboard has no password to log in with.",
    };
  const wait = throttle.retryAfterSeconds(client, now);
  if (wait > 0)
    return {
      ok: false,
      code: "too_many_attempts",
      message: `Too many failed attempts: try again in ${wait} s.`,
      retryAfterSeconds: wait,
    };
  if (!secretMatches(input.password, policy.password)) {
    throttle.recordFailure(client, now);
    return { ok: false, code: "wrong_password", message: "That password is not right." };
  }
  throttle.recordSuccess(client);
  return { ok: true };
}

const DEFAULT_NEXT = "/suites";
// Any origin will do: only whether the parsed URL stays on it matters.
const HERE = "http://rubric-studio.invalid";

/**
 * A `next` parameter that stays on this site: a path, never another origin.
 * Judged after URL parsing, as the browser will read it, since the parser
 * drops tabs and newlines and reads `\` as `/` (`/%09/evil.example/` arrives
 * as "/\t/evil.example/", which a browser takes for `//evil.example/`). The
 * answer is the parsed path, so what was checked is what is sent.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/")) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return DEFAULT_NEXT;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (
    url.origin !== HERE ||
    !path.startsWith("/") ||
    path.startsWith("//") ||
    url.pathname.startsWith("/api/")
  )
    return DEFAULT_NEXT;
  return path;
}
