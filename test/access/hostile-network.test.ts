import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { accessPolicy } from "../../lib/access/access-policy";
import { guardRequest } from "../../lib/access/guard-request";
import { attemptLogin, safeNextPath } from "../../lib/access/log-in";
import { createLoginThrottle, DEFAULT_THROTTLE_LIMITS } from "../../lib/access/login-throttle";
import { clientAddress, requestOrigin } from "../../lib/access/request-address";
import { readEnv } from "../../lib/env/read-env";

// Issue 13, items 5 to 8: what a hostile network can send the access guard.
// Requests are built as Next builds them for a server started with
// --host 0.0.0.0: the URL names 0.0.0.0, the Host header what the browser asked for.

const SECRET = "a-session-secret-of-at-least-32-characters!";
const PASSWORD = "correct horse battery";
const TOKEN = "tok_0123456789abcdef0123";
const settings = { host: "0.0.0.0", password: PASSWORD, apiToken: TOKEN, sessionSecret: SECRET };
const offLoopback = accessPolicy(settings);
const loopback = accessPolicy({ host: "127.0.0.1" });

function request(path: string, headers: Record<string, string>, method = "GET") {
  return new NextRequest(`http://0.0.0.0:4700${path}`, { method, headers });
}

async function guard(req: NextRequest, policy = offLoopback, throttle = createLoginThrottle()) {
  return guardRequest({ request: req, policy, throttle, now: Date.now() });
}

describe("redirects go to the address the browser asked for (item 5)", () => {
  it("sends a page without a session to the login page on the Host it came to, not on 0.0.0.0", async () => {
    const response = await guard(request("/runs?status=failed", { host: "192.0.2.2:4700" }));
    expect(response?.status).toBe(307);
    expect(response!.headers.get("location")).toBe(
      "http://192.0.2.2:4700/login?next=%2Fruns%3Fstatus%3Dfailed",
    );
  });

  it("uses RUBRIC_STUDIO_PUBLIC_URL when it is set (behind a proxy)", async () => {
    const policy = accessPolicy({ ...settings, publicUrl: "https://rubrics.example.com" });
    const response = await guard(request("/suites", { host: "127.0.0.1:4700" }), policy);
    expect(response!.headers.get("location")).toBe(
      "https://rubrics.example.com/login?next=%2Fsuites",
    );
  });

  it("reads RUBRIC_STUDIO_PUBLIC_URL as an origin, and RUBRIC_STUDIO_TRUST_PROXY as a switch, refusing anything else by name", () => {
    expect(
      readEnv({
        RUBRIC_STUDIO_PUBLIC_URL: "https://rubrics.example.com/ignored?x",
        RUBRIC_STUDIO_TRUST_PROXY: "1",
      }),
    ).toMatchObject({
      ok: true,
      value: { publicUrl: "https://rubrics.example.com", trustProxy: true },
    });
    expect(readEnv({})).toMatchObject({ ok: true, value: { trustProxy: false } });
    for (const [name, value] of [
      ["RUBRIC_STUDIO_PUBLIC_URL", "javascript:alert(1)"],
      ["RUBRIC_STUDIO_PUBLIC_URL", "rubrics.example.com"],
      ["RUBRIC_STUDIO_TRUST_PROXY", "yes"],
    ] as const) {
      const result = readEnv({ [name]: value });
      expect(result.ok, `${name}=${value}`).toBe(false);
      if (!result.ok) expect(result.message).toMatch(new RegExp(`^${name}: `));
    }
  });

  it("takes the proxy's X-Forwarded-Host and -Proto only when the proxy is trusted", () => {
    const headers = new Headers({
      host: "127.0.0.1:4700",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    const at = { headers, url: "http://0.0.0.0:4700/login" };
    expect(requestOrigin(at, offLoopback)).toBe("http://127.0.0.1:4700");
    expect(requestOrigin(at, accessPolicy({ ...settings, trustProxy: true }))).toBe(
      "https://evil.example",
    );
  });

  it("takes any host name a browser sends, IPv6 addresses and container names included", () => {
    for (const host of ["[fd00::2]:4700", "rubric_studio:3000", "Rubrics.Example.com"]) {
      expect(
        requestOrigin({ headers: new Headers({ host }), url: "http://0.0.0.0:4700/" }, offLoopback),
        host,
      ).toBe(`http://${host.toLowerCase()}`);
    }
  });

  it("never builds a redirect from a Host header that is more than a host and port", async () => {
    for (const host of ["evil.example/path", "user@evil.example", "a b", "evil.example:80:80"]) {
      const location = (await guard(request("/runs", { host })))!.headers.get("location")!;
      expect(location, host).toBe("/login?next=%2Fruns");
    }
  });
});

describe("the DNS-rebinding guard (item 6)", () => {
  const rebound = { host: "evil.example:4700", "x-forwarded-host": "127.0.0.1:4700" };

  it("refuses a request addressed to another name, whatever X-Forwarded-Host claims", async () => {
    const response = await guard(
      new NextRequest("http://127.0.0.1:4700/api/suites", { headers: rebound }),
      loopback,
    );
    expect(response?.status).toBe(403);
    expect(await response!.json()).toMatchObject({ error: { code: "not_loopback" } });
  });

  it("reads X-Forwarded-Host when the operator trusts a proxy", async () => {
    const trusted = accessPolicy({ host: "127.0.0.1", trustProxy: true });
    expect(
      await guard(
        new NextRequest("http://127.0.0.1:4700/api/suites", { headers: rebound }),
        trusted,
      ),
    ).toBeUndefined();
  });

  it("does not let X-Forwarded-Host make a cross-site write look same-site", async () => {
    const headers = {
      host: "192.0.2.2:4700",
      "x-forwarded-host": "evil.example",
      origin: "http://evil.example",
    };
    const response = await guard(request("/api/suites", headers, "POST"));
    expect(response?.status).toBe(403);
    expect(await response!.json()).toMatchObject({ error: { code: "cross_site" } });
  });
});

describe("the return path after login (item 7)", () => {
  it("refuses every path the URL parser turns into another origin", () => {
    // searchParams arrive decoded: next=/%09/evil.example/ is "/\t/evil.example/".
    for (const bad of [
      "/\t/evil.example/",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/\\/evil.example",
      "/.//evil.example",
      "//evil.example",
      "/\\evil.example",
      "http:evil.example",
      "/a/../api/suites",
    ]) {
      expect(safeNextPath(bad), JSON.stringify(bad)).toBe("/suites");
    }
  });

  it("keeps ordinary paths, with their query and fragment", () => {
    expect(safeNextPath("/runs/1?status=failed#row-3")).toBe("/runs/1?status=failed#row-3");
    expect(safeNextPath("/suites/abc/edit")).toBe("/suites/abc/edit");
  });
});

describe("the login throttle never locks out the right credentials (item 8)", () => {
  it("lets a client with no failures log in after 50 wrong guesses from others", () => {
    const throttle = createLoginThrottle();
    for (let i = 0; i < DEFAULT_THROTTLE_LIMITS.overall + 10; i++) {
      attemptLogin({
        password: `guess ${i}`,
        policy: offLoopback,
        throttle,
        client: `198.51.100.${i}`,
        now: 1_000,
      });
    }
    expect(
      attemptLogin({
        password: PASSWORD,
        policy: offLoopback,
        throttle,
        client: "192.0.2.50",
        now: 2_000,
      }),
    ).toEqual({ ok: true });
    // A guesser that has failed once waits: one guess per address while the flood lasts.
    attemptLogin({
      password: "typo",
      policy: offLoopback,
      throttle,
      client: "203.0.113.7",
      now: 2_000,
    });
    expect(
      attemptLogin({
        password: PASSWORD,
        policy: offLoopback,
        throttle,
        client: "203.0.113.7",
        now: 3_000,
      }),
    ).toMatchObject({ code: "too_many_attempts" });
  });

  it("never throttles a valid bearer token, even from a client locked out by its own failures", async () => {
    const throttle = createLoginThrottle();
    const bearer = (token: string) =>
      request("/api/suites", {
        host: "192.0.2.2:4700",
        authorization: `Bearer ${token}`,
        "x-forwarded-for": "192.0.2.9",
      });
    for (let i = 0; i < DEFAULT_THROTTLE_LIMITS.overall + 5; i++)
      await guard(bearer(`wrong-token-${i}-xxxxxxxx`), offLoopback, throttle);
    expect((await guard(bearer("still-wrong-xxxxxxxxxxx"), offLoopback, throttle))?.status).toBe(
      429,
    );
    expect(await guard(bearer(TOKEN), offLoopback, throttle)).toBeUndefined();
  });

  it("counts a client by the address nearest to the server, not by one it put first in X-Forwarded-For", () => {
    // A trusted proxy appends the address it saw; without one the server drops the
    // client's header (ignore-forwarded-headers.mjs) and Next writes the socket's.
    expect(clientAddress(new Headers({ "x-forwarded-for": "10.9.9.9, 203.0.113.7" }))).toBe(
      "203.0.113.7",
    );
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7" }))).toBe("203.0.113.7");
    expect(clientAddress(new Headers())).toBe("unknown");
  });
});
