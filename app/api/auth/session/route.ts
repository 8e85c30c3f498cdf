import { cookies } from "next/headers";
import { NextResponse } from "next/server";
import { currentAccessPolicy } from "../../../../lib/access/access-policy";
import { isLoggedIn, SESSION_COOKIE } from "../../../../lib/access/session";

export const dynamic = "force-dynamic";

/** `{ loginRequired, loggedIn }`: the top bar shows *Log out* when a session is open. */
export async function GET() {
  const policy = currentAccessPolicy();
  const loggedIn =
    policy.loginRequired &&
    policy.sessionSecret !== undefined &&
    (await isLoggedIn((await cookies()).get(SESSION_COOKIE)?.value, policy.sessionSecret));
  return NextResponse.json(
    { loginRequired: policy.loginRequired, loggedIn },
    { headers: { "cache-control": "no-store" } },
  );
}
