import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeLines } from "../support/measure-cli";
import { useTestDatabase } from "../support/test-database";
import { heldAfter, makeWorkspace, startFakeJudge, startWorkerProcess, yaml } from "./cli-harness";

// A worker grades two chunks at once; the chunk it took first gets its slots first, so it finishes
// while the next one fills what it leaves, and the worker takes a third. Were the two graded side
// by side, both would reach their last calls together: slow last calls would leave the worker's
// other slots idle, since it takes no third chunk while it holds two.

const database = useTestDatabase();
const ITEMS = 512; // 8 jobs of 64 cells
const HOLD_AFTER = 126; // two calls short of the first two chunks' 128

describe("a worker's two chunks", () => {
  it("are graded one after the other: at a chunk's last calls, the worker's slots stay full", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "items.jsonl"), ITEMS, (i) =>
      JSON.stringify({ id: `q${i}`, input: `Question ${i}?`, expected_output: `Answer ${i}.` }),
    );
    await ws.write(
      "suite.yaml",
      yaml(
        "datasets:",
        "  big: { file: items.jsonl }",
        "evals:",
        "  - name: answers",
        "    candidates: { dataset: big }",
        '    rubric: "The answer is right (chunk order)."',
      ),
    );
    // Every call after the first 126 waits: slow last calls, as a loaded API gives.
    const held = heldAfter(HOLD_AFTER);
    onTestFinished(() => held.release());
    const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
    const env = { ...judge.env, DATABASE_URL: database.url };
    await startWorkerProcess({ cwd: ws.dir, env, onFinished: onTestFinished, concurrency: 8 });
    const queued = await ws.cli(["eval", "--config", "suite.yaml", "--queue", "--detach"], env);
    expect(queued.stderr).toContain("512 cells in 8 jobs");
    // Once nothing more is asked for 2 s, the worker holds all it can.
    let asked = -1;
    let since = Date.now();
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && (asked < HOLD_AFTER || Date.now() - since < 2_000)) {
      if (judge.api.requests.length !== asked) {
        asked = judge.api.requests.length;
        since = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const waiting = judge.api.requests
      .slice(HOLD_AFTER)
      .map((r) => Number(/Question (\d+)\?/.exec(r.user)?.[1]))
      .sort((a, b) => a - b);
    // The second chunk's last two, and the third chunk's first six: the eight slots busy (graded
    // side by side, the first two chunks held one call each here: "waiting on 63, 128").
    expect(judge.api.inFlight(), `waiting on ${waiting.join(", ")}`).toBe(8);
    // The first chunk is done (none of its cells waits) and the third has begun.
    expect(waiting.filter((q) => q <= 64)).toEqual([]);
    expect(waiting.filter((q) => q > 128).length).toBeGreaterThan(0);
  }, 180_000);
});
