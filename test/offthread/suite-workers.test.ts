import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSuiteWorkers, type SuiteWorkers } from "../../lib/offthread/suite-workers";

// The pool behind the dashboard's suite checks: every way a thread can fail
// ends in an answer with a reason, never a hang or an exception.

const WORKER = path.resolve("bin/suite-worker.mjs");
const SMALL = "evals:\n  - name: a\n    response: r\n    rubric: x\n";
const big = (evals: number) =>
  `evals:\n${Array.from({ length: evals }, (_, i) => `  - name: e${i}\n    response: "r${i}"\n    rubric: x\n`).join("")}`;

let pool: SuiteWorkers | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("suite workers", () => {
  it("loads a suite on a thread and answers the loader's own result", async () => {
    pool = createSuiteWorkers({ workerFile: WORKER });
    const loaded = await pool.run({ kind: "load", text: SMALL, file: "s.yaml" });
    expect(loaded).toMatchObject({
      ok: true,
      value: { ok: true, value: { evals: [{ name: "a" }] } },
    });
  });

  it("says so when a thread cannot start", async () => {
    pool = createSuiteWorkers({ workerFile: "/nonexistent/suite-worker.mjs" });
    const answer = await pool.run({ kind: "load", text: SMALL, file: "s.yaml" });
    expect(answer).toMatchObject({ ok: false, code: "failed" });
    expect(answer.ok ? "" : answer.message).toMatch(
      /^The server could not start a thread to check the suite: Cannot find module/,
    );
  });

  it("answers busy when every thread works and the wait list is full", async () => {
    pool = createSuiteWorkers({ workerFile: WORKER, size: 1, maxWaiting: 1 });
    const answers = await Promise.all(
      [0, 1, 2].map(() => pool!.run({ kind: "load", text: SMALL, file: "s.yaml" })),
    );
    expect(answers.map((a) => (a.ok ? "ok" : a.code))).toEqual(["ok", "ok", "busy"]);
  });

  it("ends a thread that runs out of its heap and says the suite is too big, then works again", async () => {
    pool = createSuiteWorkers({ workerFile: WORKER, size: 1, heapMb: 24, timeLimitMs: 60_000 });
    const answer = await pool.run({
      kind: "draft",
      text: big(20_000),
      file: "s.yaml",
      defaultModel: "claude-sonnet-4-6",
    });
    expect(answer).toMatchObject({ ok: false, code: "too_complex" });
    expect(answer.ok ? "" : answer.message).toMatch(/^Checking this suite needs more than 24 MB/);
    expect((await pool.run({ kind: "load", text: SMALL, file: "s.yaml" })).ok).toBe(true);
  });

  it("drops a waiting task whose request was abandoned (the editor aborts its check on each keystroke)", async () => {
    pool = createSuiteWorkers({ workerFile: WORKER, size: 1 });
    const first = pool.run({ kind: "load", text: big(2_000), file: "s.yaml" });
    const stale = new AbortController();
    const abandoned = pool.run(
      { kind: "load", text: SMALL, file: "s.yaml" },
      { signal: stale.signal },
    );
    stale.abort();
    expect(await abandoned).toEqual({
      ok: false,
      code: "failed",
      message: "The request was abandoned before the suite was checked.",
    });
    expect((await first).ok).toBe(true);
  });
});
