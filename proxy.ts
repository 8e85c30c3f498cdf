import { NextResponse, type NextRequest } from "next/server";
import { currentAccessPolicy } from "./lib/access/access-policy";
import { guardRequest } from "./lib/access/guard-request";
import { sharedLoginThrottle } from "./lib/access/login-throttle";

// Next 16's proxy (formerly middleware), on the Node.js runtime: every
// request passes the access guard first (lib/access/guard-request.ts).

export async function proxy(request: NextRequest) {
  const refused = await guardRequest({ request, policy: currentAccessPolicy(), throttle: sharedLoginThrottle(), now: Date.now() });
  return refused ?? NextResponse.next();
}

export const config = {
  // The build's code and styles carry no data, and the login page needs them.
  matcher: ["/((?!_next/static/).*)"],
};
