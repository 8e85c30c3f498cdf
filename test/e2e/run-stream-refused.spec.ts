import http from "node:http";
import { expect, test } from "@playwright/test";
import type { FakeMessagesApi } from "../support/fake-messages-api";
import { spawnGradingDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// Issue 21's leftover: the run page's live stream refused with a 429 (8 run
// pages already open from this address) said nothing, since EventSource cannot
// read a refusal, and the figures froze. Now the page says why, keeps its
// figures fresh by reloading them, and takes its live stream back once a
// place is free. A run of 40 judge calls, 8 at a time, at 5 s each: ~25 s.

const LATENCY_MS = 5000;
const EVALS = 40;

let api: FakeMessagesApi;
let dashboard: SpawnedDashboard;
let stop: () => Promise<void>;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  ({ api, dashboard, stop } = await spawnGradingDashboard({
    latencyMs: LATENCY_MS,
    respond: () => ({ verdict: { reasoning: "Right.", score: 0.9 } }),
  }));
});
test.afterAll(async () => {
  await stop?.();
});

/** Opens a progress stream from this address and holds it until closed. */
function holdStream(url: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      expect(response.statusCode).toBe(200);
      response.on("data", () => undefined);
      resolve(() => request.destroy());
    });
    request.on("error", (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

test("a refused live stream is said, the figures stay fresh, and the stream comes back when a place is free", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lines = ["evals:"];
  for (let i = 1; i <= EVALS; i++)
    lines.push(
      `  - name: answer ${i}`,
      `    response: "Answer ${i}."`,
      `    rubric: "Right ${i}."`,
    );
  const yaml = `${lines.join("\n")}\n`;
  const created = await page.request.post(`${dashboard.url}/api/suites`, {
    data: { name: "refused stream", yaml },
  });
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`${dashboard.url}/api/suites/${id}/runs`, {
    data: { yaml },
  });
  expect(started.status()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };

  // Eight other run pages' streams from this address: the page's own is one too many.
  const held = await Promise.all(
    Array.from({ length: 8 }, () => holdStream(`${dashboard.url}/api/runs/${runId}/events`)),
  );
  await page.goto(`${dashboard.url}/runs/${runId}`);
  const note = page.getByTestId("run-stream-note");
  await expect(note).toContainText(
    "Live progress is paused: Too many progress streams from this address: at most 8 at once",
  );
  await expect(note).toContainText("reloads its figures every 5 s");

  // Paused, the figures still move: the page reloads them.
  const progress = page.getByTestId("run-progress");
  const done = async () => Number(await progress.getAttribute("data-done"));
  const before = await done();
  await expect.poll(done, { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(note).toBeVisible();

  // Places come free: the live stream is taken again and the note goes.
  for (const close of held) close();
  await expect(note).toBeHidden({ timeout: 25_000 });
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(progress).toHaveAttribute("data-done", String(EVALS));
});
