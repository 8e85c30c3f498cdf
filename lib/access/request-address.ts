import { NextResponse } from "next/server";
import type { AccessPolicy } from "./access-policy";

// Where a request came from and which address the browser asked for. The
// X-Forwarded-* headers are anyone's to send, so they count only when the
// operator says a reverse proxy in front sets them (RUBRIC_STUDIO_TRUST_PROXY);
// otherwise the Host header is the address, and the client is the socket's
// peer (`scripts/serve.ts` loads `ignore-forwarded-headers.mjs` into the
// server, so that the X-Forwarded-For Next reports is the socket's own).
// Request URLs are no guide: Next builds them from the address it listens on
// (http://0.0.0.0:3000/... under --host 0.0.0.0), which no browser can use.

type AddressPolicy = Pick<AccessPolicy, "publicUrl" | "trustProxy">;

interface RequestLike {
  headers: Headers;
  url: string;
}

// A host name, IPv4 address or bracketed IPv6 address, and an optional port:
// nothing that could carry a path, credentials or a second host.
const HOST_HEADER =
  /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*\.?)(?::\d{1,5})?$/i;

/** A Host-style value when it is just a host and port, else undefined. */
function validHost(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed && HOST_HEADER.test(trimmed) ? trimmed.toLowerCase() : undefined;
}

function firstForwarded(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.split(",")[0]?.trim() || undefined;
}

/**
 * The host (and port) the browser addressed: the trusted proxy's X-Forwarded-Host, else the Host
 * header; undefined when neither is a valid host.
 */
export function requestHost(headers: Headers, policy: AddressPolicy): string | undefined {
  if (policy.trustProxy) {
    const forwarded = firstForwarded(headers, "x-forwarded-host");
    if (forwarded !== undefined) return validHost(forwarded);
  }
  return validHost(headers.get("host"));
}

/** Whether the browser reached us over https: the trusted proxy says so, or the server itself serves https. */
export function isHttpsRequest(request: RequestLike, policy: AddressPolicy): boolean {
  if (policy.publicUrl) return policy.publicUrl.startsWith("https:");
  const forwarded = policy.trustProxy
    ? firstForwarded(request.headers, "x-forwarded-proto")?.toLowerCase()
    : undefined;
  if (forwarded) return forwarded === "https";
  return new URL(request.url).protocol === "https:";
}

/**
 * The origin the browser is on: RUBRIC_STUDIO_PUBLIC_URL when set, else built from the request's
 * validated host; undefined when there is no valid host.
 */
export function requestOrigin(request: RequestLike, policy: AddressPolicy): string | undefined {
  if (policy.publicUrl) return policy.publicUrl;
  const host = requestHost(request.headers, policy);
  return host === undefined
    ? undefined
    : `${isHttpsRequest(request, policy) ? "https" : "http"}://${host}`;
}

/**
 * A redirect to a path on this dashboard, at the origin the browser is on.
 * Without a valid host the Location stays relative, which browsers resolve
 * against the address they asked for.
 */
export function redirectTo(input: {
  path: string;
  request: RequestLike;
  policy: AddressPolicy;
  status: 303 | 307;
}): NextResponse {
  const origin = requestOrigin(input.request, input.policy);
  const location = origin === undefined ? input.path : new URL(input.path, origin).toString();
  return new NextResponse(null, {
    status: input.status,
    headers: { location, "cache-control": "no-store" },
  });
}

/**
 * Who is asking, for the login throttle: the address a trusted proxy saw (the
 * last X-Forwarded-For entry, the one it appended), else the socket's peer as
 * Next reports it.
 */
export function clientAddress(headers: Headers): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  // Without a trusted proxy the server sees one value (the socket's, see the
  // top of this file); should a client's own list get through anyway, the
  // last entry is still the one nearest to us.
  return entries.at(-1) ?? "unknown";
}
