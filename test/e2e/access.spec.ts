import http from "node:http";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { nonLoopbackAddress, spawnDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// Issue 5 §4/§5.6: off-loopback access without a login is refused. A second
// dashboard is started bound to this machine's own non-loopback address (or
// to 0.0.0.0, reached through 127.0.0.1, where the machine has none) with a
// password and an API token: pages redirect to the login page; API routes,
// the event stream and static data answer 401 or redirect; a wrong password is
// refused; the right one opens everything, until Log out.

const PASSWORD = "e2e-password-0123";
const TOKEN = "e2e-api-token-0123456789";
let dashboard: SpawnedDashboard;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const address = nonLoopbackAddress();
  dashboard = await spawnDashboard({
    host: address ?? "0.0.0.0",
    reachAt: address ?? "127.0.0.1",
    env: { RUBRIC_STUDIO_PASSWORD: PASSWORD, RUBRIC_STUDIO_API_TOKEN: TOKEN },
  });
});
test.afterAll(async () => dashboard?.stop());

test("off-loopback access without a login is refused; the right password opens it until Log out", async ({
  browser,
}) => {
  const anonymous = await playwrightRequest.newContext({ baseURL: dashboard.url, maxRedirects: 0 });
  // Pages and static data: to the login page, coming back afterwards.
  for (const path of ["/suites", "/runs", "/rubric-schema.json"]) {
    const response = await anonymous.get(path);
    expect(response.status(), path).toBe(307);
    expect(new URL(response.headers()["location"]!, dashboard.url).pathname, path).toBe("/login");
  }
  // API routes, the event stream and writes: 401 with the JSON error shape, nothing done.
  for (const [method, path] of [
    ["GET", "/api/suites"],
    ["GET", "/api/runs/00000000-0000-4000-8000-000000000000/events"],
    ["POST", "/api/suites"],
    ["POST", "/api/validate"],
  ] as const) {
    const response = await anonymous.fetch(path, {
      method,
      data: method === "POST" ? { name: "sneaky", yaml: "evals: []" } : undefined,
      headers: { accept: "text/event-stream, application/json" },
    });
    expect(response.status(), `${method} ${path}`).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
  }
  // A wrong bearer token is refused; the server's API token works.
  expect(
    (
      await anonymous.get("/api/suites", {
        headers: { authorization: "Bearer not-the-token-at-all" },
      })
    ).status(),
  ).toBe(401);
  const withToken = await anonymous.get("/api/suites", {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(withToken.status()).toBe(200);
  const suites = (await withToken.json()) as { name: string }[];
  // The anonymous POST above created nothing.
  expect(suites.map((s) => s.name)).toEqual(["examples/rubric-eval.yaml"]);
  await anonymous.dispose();

  const context = await browser.newContext({ baseURL: dashboard.url });
  const page = await context.newPage();
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/login\?next=%2Fruns$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Suites" })).toHaveCount(0);

  // A wrong password: refused, still on the login page, no session.
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("That password is not right.");
  await expect(page).toHaveURL(/\/login\?/);
  expect((await page.request.get("/api/suites")).status()).toBe(401);

  // The right one: back where we were going, and everything answers.
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  const cookie = (await context.cookies()).find((c) => c.name === "rubric_studio_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
  await page.goto("/suites");
  await expect(
    page.getByTestId("suite-row").filter({ hasText: "examples/rubric-eval.yaml" }),
  ).toBeVisible();
  expect((await page.request.get("/rubric-schema.json")).status()).toBe(200);

  // Run the example suite from its editor: the run page's event stream follows it to the end.
  await page
    .getByTestId("suite-row")
    .filter({ hasText: "examples/rubric-eval.yaml" })
    .getByRole("link")
    .first()
    .click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?watch=1)?(#results)?$/, {
    timeout: 15_000,
  });
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });

  // Log out: the session is gone for pages and API alike.
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get("/api/suites")).status()).toBe(401);
  await page.goto("/suites");
  await expect(page).toHaveURL(/\/login\?next=%2Fsuites$/);
  await context.close();
});

test("the server refuses to start off loopback without a password", async () => {
  test.setTimeout(60_000);
  const address = nonLoopbackAddress() ?? "0.0.0.0";
  await expect(
    spawnDashboard({ host: address, env: { RUBRIC_STUDIO_PASSWORD: "" } }),
  ).rejects.toThrow(
    /exited with 2[\s\S]*refusing to listen on .* without a login[\s\S]*RUBRIC_STUDIO_PASSWORD/,
  );
});

// Issue 13, items 5, 6 and 8, against real servers.
test.describe("on --host 0.0.0.0", () => {
  let wide: SpawnedDashboard;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    wide = await spawnDashboard({
      host: "0.0.0.0",
      reachAt: nonLoopbackAddress() ?? "127.0.0.1",
      env: { RUBRIC_STUDIO_PASSWORD: PASSWORD, RUBRIC_STUDIO_API_TOKEN: TOKEN },
    });
  });
  test.afterAll(async () => wide?.stop());

  test("logging in stays on the address the browser asked for, through Log out", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: wide.url });
    const page = await context.newPage();
    const visited: string[] = [];
    page.on("framenavigated", (frame) => visited.push(frame.url()));
    await page.goto("/runs");
    await expect(page).toHaveURL(`${wide.url}/login?next=%2Fruns`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(`${wide.url}/runs`);
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    await page.goto("/suites");
    await expect(
      page.getByTestId("suite-row").filter({ hasText: "examples/rubric-eval.yaml" }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${wide.url}/login`);
    // Never by way of 0.0.0.0, where the cookie does not apply.
    expect(visited.filter((url) => !url.startsWith(wide.url))).toEqual([]);
    await context.close();
  });

  test("a client's own X-Forwarded-For does not reset its guesses, and a valid token is never throttled", async () => {
    test.setTimeout(60_000);
    const api = await playwrightRequest.newContext({ baseURL: wide.url });
    const guess = (i: number) =>
      api.post("/api/auth/login", {
        data: { password: `guess number ${i}` },
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
    for (let i = 0; i < 5; i++) expect((await guess(i)).status(), `guess ${i}`).toBe(401);
    const locked = await guess(99);
    expect(locked.status()).toBe(429);
    expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(0);
    expect(
      (await api.get("/api/suites", { headers: { authorization: `Bearer ${TOKEN}` } })).status(),
    ).toBe(200);
    await api.dispose();
  });
});

test("the loopback dashboard answers no request addressed to another name, whatever X-Forwarded-Host says", async ({
  baseURL,
}) => {
  const port = Number(new URL(baseURL!).port);
  // node:http, since browsers and fetch choose their own Host header.
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.get(
      {
        host: "127.0.0.1",
        port,
        path: "/api/suites",
        headers: { host: `evil.example:${port}`, "x-forwarded-host": `127.0.0.1:${port}` },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
  });
  expect(status).toBe(403);
});
