import { cookies } from "next/headers";
import { z } from "zod";
import { currentAccessPolicy } from "../../../lib/access/access-policy";
import { REVIEWER_MAX, reviewerOf, sessionReviewer, type ReviewerResult } from "../../../lib/access/reviewer-name";
import { SESSION_COOKIE } from "../../../lib/access/session";

/** A reviewer name as a request may send it (the session's wins when logged in). */
export const ReviewerField = z.string().max(REVIEWER_MAX * 2).optional();

/** The session cookie, read only where there is a login (without one there is no session to name anyone). */
async function sessionCookie(loginRequired: boolean): Promise<string | undefined> {
  return loginRequired ? (await cookies()).get(SESSION_COOKIE)?.value : undefined;
}

/** Who is labelling: the session's name, or the one the request gives. */
export async function requestReviewer(given: unknown): Promise<ReviewerResult> {
  const policy = currentAccessPolicy();
  return reviewerOf({ policy, cookieValue: await sessionCookie(policy.loginRequired), given });
}

/** The name of the page's login session (null without one: the browser's remembered name is used). */
export async function pageSessionReviewer(): Promise<string | null> {
  const policy = currentAccessPolicy();
  return (await sessionReviewer(await sessionCookie(policy.loginRequired), policy.sessionSecret)) ?? null;
}
