import { NextResponse, type NextRequest } from "next/server";
import { currentAccessPolicy } from "./lib/access/access-policy";
import { guardRequest } from "./lib/access/guard-request";
import { sharedLoginThrottle } from "./lib/access/login-throttle";

// Next 16's proxy (formerly middleware), on the Node.js runtime: every
// request passes the access guard first (lib/access/guard-request.ts).

export async function proxy(request: NextRequest) {
  // Next answers a malformed percent-encoding in a dynamic segment (/runs/x/results/%E0%A4%A) with a bare 500.
  if (!decodable(new URL(request.url).pathname))
    return NextResponse.json(
      { error: { code: "bad_request", message: "The URL's percent-encoding is malformed." } },
      { status: 400 },
    );
  const refused = await guardRequest({
    request,
    policy: currentAccessPolicy(),
    throttle: sharedLoginThrottle(),
    now: Date.now(),
  });
  return refused ?? NextResponse.next();
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // The build's code and styles carry no data, and the login page needs them.
  matcher: ["/((?!_next/static/).*)"],
};
