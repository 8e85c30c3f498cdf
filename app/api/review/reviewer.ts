import { cookies } from "next/headers";
import type { NextResponse } from "next/server";
import * as z from "zod";
import { currentAccessPolicy } from "../../../lib/access/access-policy";
import {
  REVIEWER_MAX,
  reviewerOf,
  sessionReviewer,
  type ReviewerResult,
} from "../../../lib/access/reviewer-name";
import { SESSION_COOKIE } from "../../../lib/access/session";
import type { PrismaClient } from "../../../lib/store/generated/client";
import { errorResponse, parseJson, withDatabase } from "../respond";

/** A reviewer name as a request may send it (the session's wins when logged in). */
export const ReviewerField = z
  .string()
  .max(REVIEWER_MAX * 2)
  .optional();

/** The session cookie, read only where there is a login (without one there is no session to name anyone). */
async function sessionCookie(loginRequired: boolean): Promise<string | undefined> {
  return loginRequired ? (await cookies()).get(SESSION_COOKIE)?.value : undefined;
}

/** Who is labelling: the session's name, or the one the request gives. */
async function requestReviewer(given: unknown): Promise<ReviewerResult> {
  const policy = currentAccessPolicy();
  return reviewerOf({ policy, cookieValue: await sessionCookie(policy.loginRequired), given });
}

/** The name of the page's login session (null without one: the browser's remembered name is used). */
export async function pageSessionReviewer(): Promise<string | null> {
  const policy = currentAccessPolicy();
  return (
    (await sessionReviewer(await sessionCookie(policy.loginRequired), policy.sessionSecret)) ?? null
  );
}

/**
 * A reviewer's request, read once for every review route: its JSON body, who is labelling (the
 * session's name wins), the database; or the response that says why not.
 */
export async function reviewerRequest<S extends z.ZodType<{ reviewer?: string }>>(
  request: Request,
  schema: S,
): Promise<
  | { ok: true; body: z.infer<S>; reviewer: string; prisma: PrismaClient }
  | { ok: false; response: NextResponse }
> {
  const body = await parseJson(request, schema);
  if (!body.ok) return body;
  const reviewer = await requestReviewer(body.value.reviewer);
  if (!reviewer.ok) return { ok: false, response: errorResponse("bad_request", reviewer.message) };
  const db = withDatabase();
  if (!db.ok) return db;
  return { ok: true, body: body.value, reviewer: reviewer.name, prisma: db.prisma };
}
