import { unsealData } from "iron-session";
import { cleanName } from "../config/clean-name";
import { LIMITS } from "../config/limits";
import type { AccessPolicy } from "./access-policy";
import { SESSION_TTL_SECONDS, type SessionData } from "./session";

// Who labels: with a login, the name given at login (a session cannot label
// as someone else); on loopback without a login, the name the browser
// remembers and sends with each request.

export const REVIEWER_MAX = LIMITS.reviewerChars;

/** A reviewer's name in the one normal form of names (lib/config/clean-name.ts), or undefined when nothing is left. */
export function cleanReviewerName(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  return cleanName(raw, REVIEWER_MAX) || undefined;
}

/** The name a session was opened with, if any. */
export async function sessionReviewer(
  cookieValue: string | undefined,
  secret: string | undefined,
): Promise<string | undefined> {
  if (!cookieValue || !secret) return undefined;
  try {
    const data = await unsealData<SessionData>(cookieValue, {
      password: secret,
      ttl: SESSION_TTL_SECONDS,
    });
    return data.loggedIn === true ? cleanReviewerName(data.reviewer) : undefined;
  } catch {
    // A seal this server did not make is no session (see session.ts).
    return undefined;
  }
}

export type ReviewerResult = { ok: true; name: string } | { ok: false; message: string };

/**
 * The reviewer of a request: the session's name when there is one, else (loopback, or a bearer
 * token) the name the request gives.
 */
export async function reviewerOf(input: {
  policy: Pick<AccessPolicy, "loginRequired" | "sessionSecret">;
  cookieValue: string | undefined;
  given: unknown;
}): Promise<ReviewerResult> {
  const fromSession = input.policy.loginRequired
    ? await sessionReviewer(input.cookieValue, input.policy.sessionSecret)
    : undefined;
  if (fromSession) return { ok: true, name: fromSession };
  const given = cleanReviewerName(input.given);
  if (given) return { ok: true, name: given };
  return {
    ok: false,
    message: input.policy.loginRequired
      ? "Log in with your name to label, or send a reviewer name."
      : "Give your name first: labels say who gave them.",
  };
}
