import { expect, test } from "@playwright/test";

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
