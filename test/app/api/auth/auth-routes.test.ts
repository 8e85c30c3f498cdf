import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { unsealData } from "iron-session";

// The login and logout routes called as Next calls them on a server started
// with --host 0.0.0.0: Next builds the request URL from the address it listens
// on (http://0.0.0.0:PORT/...), and the browser's Host header says where it
// really is (issue 13, items 5 and 7). The routes read the server's settings,
// so the environment is set before they load.

const PASSWORD = "correct horse battery";
const SECRET = "a-session-secret-of-at-least-32-characters!";
type Handler = (request: Request) => Promise<Response>;
let login: Handler;
let logout: Handler;

beforeAll(async () => {
  const env = {
    RUBRIC_STUDIO_HOST: "0.0.0.0",
    RUBRIC_STUDIO_PASSWORD: PASSWORD,
    RUBRIC_STUDIO_SESSION_SECRET: SECRET,
    RUBRIC_STUDIO_PUBLIC_URL: "",
    RUBRIC_STUDIO_TRUST_PROXY: "",
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  // A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
  login = (await import("../../../../app/api/auth/login/route")).POST;
  logout = (await import("../../../../app/api/auth/logout/route")).POST;
});

afterAll(() => vi.unstubAllEnvs());

function form(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request("http://0.0.0.0:4700/api/auth/login", {
    method: "POST",
    headers: {
      host: "192.0.2.2:4700",
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": "192.0.2.77",
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("POST /api/auth/login on --host 0.0.0.0", () => {
  it("sends the browser back to the host it asked for, with a session cookie for that host", async () => {
    const response = await login(form({ password: PASSWORD, next: "/runs?status=failed" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://192.0.2.2:4700/runs?status=failed");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^rubric_studio_session=[^;]+;.*Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    const sealed = /^rubric_studio_session=([^;]+)/.exec(cookie)![1]!;
    expect(
      await unsealData<{ loggedIn?: boolean }>(decodeURIComponent(sealed), { password: SECRET }),
    ).toMatchObject({ loggedIn: true });
  });

  it("keeps the name given at login in the session: review labels carry it", async () => {
    const response = await login(
      form(
        { password: PASSWORD, name: "  Ana  Lopez ", next: "/runs" },
        { "x-forwarded-for": "192.0.2.78" },
      ),
    );
    const sealed =
      /^rubric_studio_session=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect(
      await unsealData<{ reviewer?: string }>(decodeURIComponent(sealed), { password: SECRET }),
    ).toMatchObject({ loggedIn: true, reviewer: "Ana Lopez" });
  });

  it("never sends the browser to another site after login, whatever `next` says", async () => {
    for (const next of [
      "/\t/evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "https://evil.example/",
    ]) {
      const response = await login(form({ password: PASSWORD, next }));
      expect(response.headers.get("location"), JSON.stringify(next)).toBe(
        "http://192.0.2.2:4700/suites",
      );
    }
  });

  it("sends a wrong password back to the login page on the same host", async () => {
    const response = await login(
      form({ password: "not it at all", next: "/runs" }, { "x-forwarded-for": "192.0.2.78" }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "http://192.0.2.2:4700/login?error=wrong_password&next=%2Fruns",
    );
  });
});

describe("POST /api/auth/logout on --host 0.0.0.0", () => {
  it("ends the session and goes to the login page on the host the browser asked for", async () => {
    const response = await logout(
      new Request("http://0.0.0.0:4700/api/auth/logout", {
        method: "POST",
        headers: { host: "192.0.2.2:4700" },
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://192.0.2.2:4700/login");
    expect(response.headers.get("set-cookie")).toMatch(
      /^rubric_studio_session=;.*Path=\/;.*Expires=Thu, 01 Jan 1970/,
    );
  });
});
