import { NextRequest } from "next/server";
import { sealData } from "iron-session";
import { describe, expect, it } from "vitest";
import { accessPolicy } from "../../lib/access/access-policy";
import { checkBinding, isLoopbackHost } from "../../lib/access/binding";
import { secretMatches } from "../../lib/access/check-secret";
import { guardRequest } from "../../lib/access/guard-request";
import { attemptLogin, safeNextPath } from "../../lib/access/log-in";
import { createLoginThrottle } from "../../lib/access/login-throttle";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "../../lib/access/session";

// The access guard that proxy.ts puts in front of every request, with real
// NextRequests and real iron-session seals.

const SECRET = "a-session-secret-of-at-least-32-characters!";
const PASSWORD = "correct horse battery";
const TOKEN = "tok_0123456789abcdef0123";
const offLoopback = accessPolicy({
  host: "0.0.0.0",
  password: PASSWORD,
  apiToken: TOKEN,
  sessionSecret: SECRET,
});
const loopback = accessPolicy({ host: "127.0.0.1" });

function request(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const host = new URL(url).host;
  return new NextRequest(url, { method: init.method ?? "GET", headers: { host, ...init.headers } });
}

async function guard(req: NextRequest, policy = offLoopback, throttle = createLoginThrottle()) {
  return guardRequest({ request: req, policy, throttle, now: Date.now() });
}

async function sessionCookie(
  data: object = { loggedIn: true, since: Date.now() },
  secret = SECRET,
) {
  return `${SESSION_COOKIE}=${await sealData(data, { password: secret, ttl: SESSION_TTL_SECONDS })}`;
}

describe("binding", () => {
  it("counts 127.0.0.0/8, ::1 and localhost as loopback, and nothing else", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "LOCALHOST",
      "::1",
      "[::1]",
      "app.localhost",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      "0.0.0.0",
      "::",
      "192.0.2.2",
      "10.0.0.1",
      "example.com",
      "127.0.0.1.example.com",
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("refuses to start off loopback without a password, and asks for a login there with one", () => {
    const refused = checkBinding({ host: "0.0.0.0" });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/RUBRIC_STUDIO_PASSWORD/);
    expect(checkBinding({ host: "0.0.0.0", password: PASSWORD })).toEqual({
      ok: true,
      host: "0.0.0.0",
      loginRequired: true,
    });
    expect(checkBinding({})).toEqual({ ok: true, host: "127.0.0.1", loginRequired: false });
    // A password on loopback turns the login on there too.
    expect(checkBinding({ password: PASSWORD })).toMatchObject({ ok: true, loginRequired: true });
  });
});

describe("secretMatches", () => {
  it("accepts only the exact secret, whatever the lengths", () => {
    expect(secretMatches(PASSWORD, PASSWORD)).toBe(true);
    expect(secretMatches(`${PASSWORD} `, PASSWORD)).toBe(false);
    expect(secretMatches("", PASSWORD)).toBe(false);
    expect(secretMatches(PASSWORD.slice(0, -1), PASSWORD)).toBe(false);
  });
});

describe("guardRequest off loopback", () => {
  it("redirects a page without a session to the login page, coming back to it", async () => {
    const response = await guard(request("http://192.0.2.2:3000/runs/abc?status=failed"));
    expect(response?.status).toBe(307);
    const location = new URL(response!.headers.get("location")!);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("next")).toBe("/runs/abc?status=failed");
  });

  it("answers 401 to API routes, event streams and writes without a session, with the JSON error shape", async () => {
    for (const [path, method] of [
      ["/api/suites", "GET"],
      ["/api/runs/1/events", "GET"],
      ["/api/suites/1/runs", "POST"],
      ["/suites", "POST"],
    ] as const) {
      const response = await guard(request(`http://192.0.2.2:3000${path}`, { method }));
      expect(response?.status, `${method} ${path}`).toBe(401);
      expect(await response!.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
  });

  it("guards static data too (the JSON Schema in public/), but not the login page or the build's code", async () => {
    expect((await guard(request("http://192.0.2.2:3000/rubric-schema.json")))?.status).toBe(307);
    expect(await guard(request("http://192.0.2.2:3000/login"))).toBeUndefined();
    expect(
      await guard(request("http://192.0.2.2:3000/api/auth/login", { method: "POST" })),
    ).toBeUndefined();
    expect(
      await guard(request("http://192.0.2.2:3000/_next/static/chunks/app.js")),
    ).toBeUndefined();
  });

  it("lets a valid session through, and not a forged, foreign or logged-out one", async () => {
    const ok = await guard(
      request("http://192.0.2.2:3000/api/suites", { headers: { cookie: await sessionCookie() } }),
    );
    expect(ok).toBeUndefined();
    const foreign = await guard(
      request("http://192.0.2.2:3000/api/suites", {
        headers: {
          cookie: await sessionCookie(undefined, "another-secret-another-secret-another!"),
        },
      }),
    );
    expect(foreign?.status).toBe(401);
    const forged = await guard(
      request("http://192.0.2.2:3000/api/suites", {
        headers: { cookie: `${SESSION_COOKIE}=Fe26.2**garbage*x*y` },
      }),
    );
    expect(forged?.status).toBe(401);
    const empty = await guard(
      request("http://192.0.2.2:3000/api/suites", { headers: { cookie: await sessionCookie({}) } }),
    );
    expect(empty?.status).toBe(401);
  });

  it("takes the API token as a bearer token, refuses a wrong one, and throttles guessing", async () => {
    const throttle = createLoginThrottle({ perClient: 3, overall: 100, windowMs: 60_000 });
    const bearer = (token: string) =>
      request("http://192.0.2.2:3000/api/suites", {
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "192.0.2.9" },
      });
    expect(await guard(bearer(TOKEN), offLoopback, throttle)).toBeUndefined();
    for (let i = 0; i < 3; i++)
      expect((await guard(bearer("wrong-token-wrong-token"), offLoopback, throttle))?.status).toBe(
        401,
      );
    const locked = await guard(bearer("wrong-token-wrong-token"), offLoopback, throttle);
    expect(locked?.status).toBe(429);
    expect(Number(locked!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses cross-site writes even with a session", async () => {
    const response = await guard(
      request("http://192.0.2.2:3000/api/suites", {
        method: "POST",
        headers: { cookie: await sessionCookie(), origin: "http://evil.example" },
      }),
    );
    expect(response?.status).toBe(403);
    const same = await guard(
      request("http://192.0.2.2:3000/api/suites", {
        method: "POST",
        headers: { cookie: await sessionCookie(), origin: "http://192.0.2.2:3000" },
      }),
    );
    expect(same).toBeUndefined();
  });

  it("serves nothing when the server is off loopback without a password (started some other way)", async () => {
    const response = await guard(
      request("http://192.0.2.2:3000/suites"),
      accessPolicy({ host: "0.0.0.0" }),
    );
    expect(response?.status).toBe(503);
    expect(
      await guard(
        request("http://192.0.2.2:3000/login"),
        accessPolicy({ host: "0.0.0.0", password: PASSWORD }),
      ),
    ).toMatchObject({ status: 503 });
  });
});

describe("guardRequest on loopback without a password", () => {
  it("asks for nothing on 127.0.0.1 or localhost", async () => {
    expect(await guard(request("http://127.0.0.1:3000/api/suites"), loopback)).toBeUndefined();
    expect(await guard(request("http://localhost:3000/suites"), loopback)).toBeUndefined();
  });

  it("refuses requests addressed to another name (DNS rebinding) and cross-site writes", async () => {
    const rebound = await guard(request("http://attacker.example:3000/api/suites"), loopback);
    expect(rebound?.status).toBe(403);
    const csrf = await guard(
      request("http://127.0.0.1:3000/api/suites/1/runs", {
        method: "POST",
        headers: { origin: "http://attacker.example" },
      }),
      loopback,
    );
    expect(csrf?.status).toBe(403);
  });
});

describe("attemptLogin", () => {
  it("accepts the password, refuses a wrong one, and locks a client out after repeated failures", () => {
    const throttle = createLoginThrottle({ perClient: 2, overall: 100, windowMs: 60_000 });
    const at = (password: string, client = "a", now = 1_000) =>
      attemptLogin({ password, policy: offLoopback, throttle, client, now });
    expect(at(PASSWORD)).toEqual({ ok: true });
    expect(at("nope")).toMatchObject({ ok: false, code: "wrong_password" });
    expect(at("nope again")).toMatchObject({ ok: false, code: "wrong_password" });
    // Locked: even the right password waits.
    expect(at(PASSWORD)).toMatchObject({
      ok: false,
      code: "too_many_attempts",
      retryAfterSeconds: 60,
    });
    // Another client is not locked out by the first one's failures...
    expect(at(PASSWORD, "b")).toEqual({ ok: true });
    // ...and the first may try again once the window has passed.
    expect(at(PASSWORD, "a", 61_001)).toEqual({ ok: true });
  });

  it("caps failures over all clients for clients that have failed, but not for one that has not", () => {
    const throttle = createLoginThrottle({ perClient: 100, overall: 3, windowMs: 60_000 });
    for (const client of ["x", "y", "z"])
      attemptLogin({ password: "bad", policy: offLoopback, throttle, client, now: 0 });
    expect(
      attemptLogin({ password: PASSWORD, policy: offLoopback, throttle, client: "x", now: 10 }),
    ).toMatchObject({ code: "too_many_attempts" });
    expect(
      attemptLogin({ password: PASSWORD, policy: offLoopback, throttle, client: "w", now: 10 }),
    ).toEqual({ ok: true });
  });

  it("keeps the return path on this site", () => {
    expect(safeNextPath("/runs/1?x=2")).toBe("/runs/1?x=2");
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "",
      null,
      "/api/suites",
    ])
      expect(safeNextPath(bad)).toBe("/suites");
  });
});
