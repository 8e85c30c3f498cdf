import { currentAccessPolicy } from "../../../../lib/access/access-policy";
import { redirectTo } from "../../../../lib/access/request-address";
import { SESSION_COOKIE } from "../../../../lib/access/session";

export const dynamic = "force-dynamic";

/** Ends the session (removes its cookie) and goes to the login page, at the address the browser is on. */
export async function POST(request: Request) {
  const response = redirectTo({
    path: "/login",
    request,
    policy: currentAccessPolicy(),
    status: 303,
  });
  response.cookies.delete({ name: SESSION_COOKIE, path: "/" });
  return response;
}
