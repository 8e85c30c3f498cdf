import { NextResponse } from "next/server";
import { getIronSession } from "iron-session";
import { currentAccessPolicy } from "../../../../lib/access/access-policy";
import { attemptLogin, safeNextPath } from "../../../../lib/access/log-in";
import { sharedLoginThrottle } from "../../../../lib/access/login-throttle";
import { clientAddress, isHttpsRequest, redirectTo } from "../../../../lib/access/request-address";
import { cleanReviewerName } from "../../../../lib/access/reviewer-name";
import { sessionOptions, type SessionData } from "../../../../lib/access/session";
import { isStorable } from "../../../../lib/config/storable-text";
import { errorResponse } from "../../respond";

export const dynamic = "force-dynamic";

// A wrong password is answered after this delay, so guessing is slow even
// within the throttle's limits.
const FAILURE_DELAY_MS = 1000;

/**
 * POST the password: a form (the login page; answers with a redirect) or
 * JSON `{ password, name? }` (answers `{ loggedIn: true }`, or 401/429). Sets the
 * session cookie on success, with the name review labels are given under.
 */
export async function POST(request: Request) {
  const isForm = (request.headers.get("content-type") ?? "").includes(
    "application/x-www-form-urlencoded",
  );
  let password = "";
  let name: unknown;
  let next: string | null = null;
  if (isForm) {
    const form = await request.formData().catch(() => undefined);
    password = String(form?.get("password") ?? "");
    name = form?.get("name")?.toString();
    next = form?.get("next")?.toString() ?? null;
  } else {
    const body = (await request.json().catch(() => undefined)) as
      { password?: unknown; name?: unknown } | undefined;
    if (typeof body?.password !== "string")
      return errorResponse("bad_request", "Send { password } as JSON, or the login form.");
    password = body.password;
    name = body.name;
  }
  // The name labels are stored under: a NUL or an unpaired surrogate could never be stored.
  if (typeof name === "string" && !isStorable(name))
    return errorResponse(
      "bad_request",
      "name: contains a NUL character or an unpaired surrogate, which cannot be stored; remove it.",
    );
  const policy = currentAccessPolicy();
  const outcome = attemptLogin({
    password,
    policy,
    throttle: sharedLoginThrottle(),
    client: clientAddress(request.headers),
    now: Date.now(),
  });
  if (!outcome.ok) {
    if (outcome.code === "wrong_password")
      await new Promise((resolve) => setTimeout(resolve, FAILURE_DELAY_MS));
    if (isForm) {
      const back = new URLSearchParams({ error: outcome.code });
      if (outcome.code === "too_many_attempts") back.set("wait", String(outcome.retryAfterSeconds));
      if (next) back.set("next", safeNextPath(next));
      return redirectTo({ path: `/login?${back.toString()}`, request, policy, status: 303 });
    }
    const status =
      outcome.code === "too_many_attempts" ? 429 : outcome.code === "no_login" ? 400 : 401;
    return NextResponse.json(
      { error: { code: outcome.code, message: outcome.message } },
      {
        status,
        headers:
          outcome.code === "too_many_attempts"
            ? { "retry-after": String(outcome.retryAfterSeconds) }
            : {},
      },
    );
  }
  const response = isForm
    ? redirectTo({ path: safeNextPath(next), request, policy, status: 303 })
    : NextResponse.json({ loggedIn: true });
  // The cookie goes on this response itself, so the route needs no request scope of Next's (and tests can call it).
  const session = await getIronSession<SessionData>(
    request,
    response,
    sessionOptions({ secret: policy.sessionSecret!, secure: isHttpsRequest(request, policy) }),
  );
  session.loggedIn = true;
  session.since = Date.now();
  const reviewer = cleanReviewerName(name);
  if (reviewer) session.reviewer = reviewer;
  await session.save();
  return response;
}
