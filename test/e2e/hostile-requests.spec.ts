import net from "node:net";
import { expect, test } from "@playwright/test";
import { spawnDashboard } from "./spawn-dashboard";

// Against the built app (`next build`, `npm start`): pages for ids that do not
// exist answer 404, malformed URLs are not a 500, and a heavy suite posted to
// the editor's check runs on a worker thread (whose bundle must work outside
// Next's bundler) while the rest of the server keeps answering.

const NO_ID = "00000000-0000-4000-8000-000000000000";

test("pages of runs, results and suites that do not exist answer 404 with the not-found page", async ({
  request,
}) => {
  for (const path of [
    `/runs/${NO_ID}`,
    "/runs/not-a-run",
    `/runs/${NO_ID}/agreement`,
    `/runs/${NO_ID}/results/eval`,
    "/runs/x/results/%00",
    `/suites/${NO_ID}`,
    "/suites/not-a-suite",
    `/suites/${NO_ID}/calibration`,
    `/suites/${NO_ID}/runs`,
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
  }
  // Malformed percent-encoding: Next itself failed on it with a bare 500.
  for (const path of [
    "/runs/x/results/%E0%A4%A",
    "/suites/%E0%A4%A",
    "/api/runs/%E0%A4%A/results",
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
  }
  expect((await request.get("/runs")).status()).toBe(200);
  expect((await request.get("/suites")).status()).toBe(200);
});

test("the rows route refuses a NUL in the search with a 400", async ({ request }) => {
  const response = await request.get(`/api/runs/${NO_ID}/results?q=%00`);
  expect(response.status()).toBe(400);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe("bad_request");
});

test("a heavy suite is checked on a worker thread: other requests are answered meanwhile", async ({
  request,
}) => {
  // Big enough to take a while on one thread, small enough for the 10 s limit on a busy machine. The tag sends it
  // through the yaml package (the fast path declines tags), the loader's slow path, which is what must not block.
  const yaml = `evals:\n${Array.from({ length: 4_000 }, (_, i) => `  - name: e${i}\n    response: !!str "r${i}"\n    rubric:\n      criteria:\n        - { name: a, description: b }\n        - { name: c, description: d }\n`).join("")}`;
  let checked = false;
  const heavy = request
    .post("/api/validate", { data: { yaml }, timeout: 60_000 })
    .then((r) => ((checked = true), r));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  const list = await request.get("/api/suites");
  const ms = Date.now() - started;
  expect(list.status()).toBe(200);
  expect(checked).toBe(false);
  expect(ms).toBeLessThan(1_500);
  const response = await heavy;
  expect(response.status()).toBe(200);
  expect(((await response.json()) as { plan: { cells: number } }).plan.cells).toBe(4_000);
});

test("a body over 10 MB gets a 413 that says the limit, not 'expected object'", async ({
  request,
}) => {
  const response = await request.post("/api/validate", {
    data: { yaml: "x".repeat(12 * 1024 * 1024) },
  });
  expect(response.status()).toBe(413);
  expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
    "larger than 5 MB",
  );
});

test("the labelling page of an item that does not exist answers 404, not 200 with the not-found body", async ({
  request,
}) => {
  const suites = (await (await request.get("/api/suites")).json()) as { id: string }[];
  const suite = suites[0]!.id;
  // The page calls notFound(); under a loading boundary it had started streaming and answered 200.
  for (const item of [NO_ID, "not-an-item", "%00"]) {
    const response = await request.get(`/suites/${suite}/review/${item}`);
    expect(response.status(), item).toBe(404);
  }
  // The suite's other pages still answer (and stream their loading state).
  for (const page of ["", "/runs", "/review", "/diff"])
    expect((await request.get(`/suites/${suite}${page}`)).status(), page).toBe(200);
});

test("a NUL or an unpaired surrogate in a posted name, note or YAML: 400 that names the field, not an empty 500", async ({
  request,
}) => {
  const suites = (await (await request.get("/api/suites")).json()) as { id: string }[];
  const suite = suites[0]!.id;
  for (const [path, method, body, field] of [
    ["/api/suites", "post", '{"name":"a\\u0000b","yaml":"evals: []"}', "name"],
    [`/api/suites/${suite}`, "patch", '{"name":"a\\ud800"}', "name"],
    [`/api/suites/${suite}/versions`, "post", '{"yaml":"# \\u0000"}', "yaml"],
    [`/api/review/${NO_ID}/claim`, "post", '{"reviewer":"a\\u0000"}', "reviewer"],
    [
      `/api/runs/${NO_ID}/review`,
      "post",
      '{"resultKey":"k\\u0000","criterion":"c","reviewer":"r"}',
      "resultKey",
    ],
  ] as const) {
    const response = await request.fetch(path, {
      method,
      headers: { "content-type": "application/json" },
      data: body,
    });
    expect(response.status(), path).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message, path).toMatch(new RegExp(`^${field}: contains .*cannot be stored`));
  }
});

test("clients that abort their uploads leave one short line in the log, not four lines each", async () => {
  test.setTimeout(120_000);
  const dashboard = await spawnDashboard({ host: "127.0.0.1", env: {} });
  try {
    const { port } = new URL(dashboard.url);
    for (let i = 0; i < 5; i++)
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => {
          socket.write(
            `POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"yaml":"${"x".repeat(50_000)}`,
          );
          setTimeout(() => {
            socket.destroy();
            setTimeout(resolve, 300);
          }, 200);
        });
        socket.on("error", () => resolve());
      });
    // The server still answers.
    expect((await fetch(`${dashboard.url}/api/suites`)).status).toBe(200);
    const log = dashboard.output();
    expect(log).not.toContain("Error: aborted");
    expect(log.split("\n").filter((line) => /ECONNRESET|aborted/.test(line))).toEqual([
      "1 request aborted by the client before the body was read (ECONNRESET; at most one such line a minute)",
    ]);
  } finally {
    await dashboard.stop();
  }
  // A stop is said, and said to be over (SIGTERM here; Ctrl-C at a terminal).
  expect(dashboard.output()).toContain("SIGTERM: stopping. The judge calls in flight finish first");
  expect(dashboard.output().split("\n")).toContain("stopped");
});

test("Check anchors with a likert band of 30,001 points answers a located error at once, and the server lives on", async ({
  request,
}) => {
  // Issue 21: this request built 30,001 label points and a 30,001² matrix on the server's thread until it died.
  const yaml = `evals:\n  - name: wide\n    response: hi\n    rubric:\n      scale: { likert: { min: 0, max: 30000 } }\n      criteria:\n        - name: c\n          description: d\n          examples:\n            - { response: a, score: 1 }\n            - { response: b, score: 0 }\n`;
  const started = Date.now();
  const response = await request.post("/api/calibration/check", {
    data: { yaml },
    timeout: 30_000,
  });
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(response.status()).toBe(200);
  const check = (await response.json()) as {
    ok: boolean;
    issues: { line: number; message: string }[];
  };
  expect(check.ok).toBe(false);
  expect(check.issues[0]).toMatchObject({ line: 5 });
  expect(check.issues[0]!.message).toMatch(/^a likert scale has at most 101 points/);
  expect((await request.get("/api/suites")).status()).toBe(200);
});
