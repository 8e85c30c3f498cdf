import { cookies } from "next/headers";
import { currentAccessPolicy } from "../../../lib/access/access-policy";
import { REVIEWER_MAX, reviewerOf, sessionReviewer, type ReviewerResult } from "../../../lib/access/reviewer-name";
import { SESSION_COOKIE } from "../../../lib/access/session";
import { z } from "zod";

/** A reviewer name as a request may send it (the session's wins when logged in). */
export const ReviewerField = z.string().max(REVIEWER_MAX * 2).optional();

/** Who is labelling: the session's name, or the one the request gives. */
export async function requestReviewer(given: unknown): Promise<ReviewerResult> {
  return reviewerOf({ policy: currentAccessPolicy(), cookieValue: (await cookies()).get(SESSION_COOKIE)?.value, given });
}

/** The name of the page's login session (null without one: the browser's remembered name is used). */
export async function pageSessionReviewer(): Promise<string | null> {
  const policy = currentAccessPolicy();
  if (!policy.loginRequired) return null;
  return (await sessionReviewer((await cookies()).get(SESSION_COOKIE)?.value, policy.sessionSecret)) ?? null;
}
