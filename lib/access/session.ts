import { unsealData, type SessionOptions } from "iron-session";

// The login session: an iron-session cookie (sealed and signed with the
// session secret), httpOnly, SameSite=Lax, Secure when the request came over
// https (directly, or through a trusted proxy that says so: `isHttpsRequest`
// in request-address.ts). It holds no more than "logged in, since when, as
// whom" (the name labels are given under; reviewer-name.ts).

export const SESSION_COOKIE = "rubric_studio_session";
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionData {
  loggedIn?: boolean;
  /** Date.now() at login. */
  since?: number;
  /** The name given at login: a review label's author. */
  reviewer?: string;
}

export function sessionOptions(input: { secret: string; secure: boolean }): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: input.secret,
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure: input.secure, path: "/" },
  };
}

/** Whether a session cookie's value is a valid, unexpired login. A forged or stale cookie is simply not one. */
export async function isLoggedIn(
  cookieValue: string | undefined,
  secret: string,
): Promise<boolean> {
  if (!cookieValue) return false;
  try {
    const data = await unsealData<SessionData>(cookieValue, {
      password: secret,
      ttl: SESSION_TTL_SECONDS,
    });
    return data.loggedIn === true;
  } catch {
    // unsealData throws on a seal it did not make (tampered, another secret):
    // that is an answer (not logged in), not an error to report.
    return false;
  }
}
