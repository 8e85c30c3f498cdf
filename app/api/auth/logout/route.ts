import { cookies } from "next/headers";
import { NextResponse } from "next/server";
import { SESSION_COOKIE } from "../../../../lib/access/session";

export const dynamic = "force-dynamic";

/** Ends the session (removes its cookie) and goes to the login page. */
export async function POST(request: Request) {
  (await cookies()).delete(SESSION_COOKIE);
  return NextResponse.redirect(new URL("/login", request.url), 303);
}
