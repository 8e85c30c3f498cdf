import { NextResponse, type NextRequest } from "next/server";
import type { AccessPolicy } from "./access-policy";
import { hostOfHeader, isLoopbackHost } from "./binding";
import { secretMatches } from "./check-secret";
import type { LoginThrottle } from "./login-throttle";
import { clientAddress, redirectTo, requestHost } from "./request-address";
import { isLoggedIn, SESSION_COOKIE } from "./session";

// The one gate in front of every page, route handler, event stream and
// static file (proxy.ts calls it for each request). It answers with a
// response when the request may not go on, and undefined when it may.
//
//   - cross-site writes are refused always (an Origin that is not this host);
//   - without a login (loopback, no password): only requests addressed to a
//     loopback name, so a web page cannot reach the dashboard by DNS rebinding
//     (the Host header decides; X-Forwarded-Host only behind a trusted proxy);
//   - with a login: a valid session cookie, or `Authorization: Bearer <token>`
//     when RUBRIC_STUDIO_API_TOKEN is set. Pages redirect to /login; API
//     routes, event streams and writes answer 401. A valid token always
//     passes; wrong ones count against the client in the login throttle.

export const LOGIN_PATH = "/login";

/** What anyone may fetch: the login page and its form's routes, the build's code and styles, and the icon (no data). */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === LOGIN_PATH ||
    pathname === "/api/auth/login" ||
    pathname === "/api/auth/logout" ||
    pathname.startsWith("/_next/static/") ||
    pathname === "/favicon.ico" ||
    pathname === "/icon.svg"
  );
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function refuse(
  status: 401 | 403 | 429 | 503,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): NextResponse {
  return NextResponse.json(
    { error: { code, message } },
    { status, headers: { "cache-control": "no-store", ...headers } },
  );
}

function isCrossSite(request: NextRequest, policy: AccessPolicy): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true; // "null" (a sandboxed frame, a file) or garbage: not us
  }
  originHost = originHost.toLowerCase();
  if (policy.publicUrl !== undefined && originHost === new URL(policy.publicUrl).host) return false;
  return originHost !== requestHost(request.headers, policy);
}

/** Where a page request without a session goes: the login page, coming back to where it was. */
export function loginRedirect(request: NextRequest, policy: AccessPolicy): NextResponse {
  const back = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  const path =
    back === "/" ? LOGIN_PATH : `${LOGIN_PATH}?${new URLSearchParams({ next: back }).toString()}`;
  return redirectTo({ path, request, policy, status: 307 });
}

export async function guardRequest(input: {
  request: NextRequest;
  policy: AccessPolicy;
  throttle: LoginThrottle;
  now: number;
}): Promise<NextResponse | undefined> {
  const { request, policy } = input;
  if (isCrossSite(request, policy))
    return refuse(
      403,
      "cross_site",
      "Cross-site requests are refused: use the dashboard's own pages.",
    );
  if (policy.problem)
    return refuse(503, "unavailable", `The dashboard will not serve anything: ${policy.problem}`);

  if (!policy.loginRequired) {
    const host = requestHost(request.headers, policy);
    if (host === undefined || !isLoopbackHost(hostOfHeader(host))) {
      return refuse(
        403,
        "not_loopback",
        "This dashboard only answers on 127.0.0.1 or localhost (it has no login). To reach " +
          "it from elsewhere, start it with --host and RUBRIC_STUDIO_PASSWORD.",
      );
    }
    return undefined;
  }

  const pathname = request.nextUrl.pathname;
  if (isPublicPath(pathname)) return undefined;

  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
    // The token is checked first: a valid one is never throttled (CI scripts
    // keep working while someone else guesses), and it is long enough that
    // guessing it is hopeless anyway.
    if (
      token !== undefined &&
      policy.apiToken !== undefined &&
      secretMatches(token, policy.apiToken)
    )
      return undefined;
    const client = clientAddress(request.headers);
    const wait = input.throttle.retryAfterSeconds(client, input.now);
    if (wait > 0)
      return refuse(429, "too_many_attempts", `Too many failed attempts: try again in ${wait} s.`, {
        "retry-after": String(wait),
      });
    input.throttle.recordFailure(client, input.now);
    return refuse(
      401,
      "unauthorized",
      policy.apiToken === undefined
        ? "Bearer tokens are off: set RUBRIC_STUDIO_API_TOKEN on the server, or log in."
        : "The bearer token is not valid.",
      {
        "www-authenticate": 'Bearer realm="rubric-studio"',
      },
    );
  }

  if (await isLoggedIn(request.cookies.get(SESSION_COOKIE)?.value, policy.sessionSecret!))
    return undefined;

  const isPage =
    SAFE_METHODS.has(request.method) &&
    !pathname.startsWith("/api/") &&
    request.headers.get("accept") !== "text/event-stream";
  if (isPage) return loginRedirect(request, policy);
  return refuse(
    401,
    "unauthorized",
    "Log in first (the dashboard's login page, or Authorization: Bearer <RUBRIC_STUDIO_API_TOKEN>).",
    { "www-authenticate": 'Bearer realm="rubric-studio"' },
  );
}
