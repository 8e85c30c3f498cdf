import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge } from "./cli-harness";
import { useTestDatabase } from "../support/test-database";

// A queued run (`eval --queue`, and every `worker`) treats the prompt cache as
// `eval` does: a prefix the API never cached is said once per run, and a run
// expected to outlast the 5-minute entry asks for the 1-hour TTL, though each
// job grades one cell.

const database = useTestDatabase();

const ANCHORS = Array.from(
  { length: 6 },
  (_, i) =>
    `        - { response: "Anchor ${i}: ${"the scheduler hands each lease to the next worker within the budget. ".repeat(6)}", score: ${(i / 5).toFixed(1)} }`,
);
function suite(evals: number, tag: string): string {
  return [
    "judge: { model: claude-sonnet-4-5 }",
    "rubrics:",
    "  shared:",
    "    criteria:",
    ...["correct", "complete", "clear"].flatMap((criterion) => [
      `      - name: ${criterion}`,
      `        description: "Is ${criterion} (${tag})."`,
      "        examples:",
      ...ANCHORS,
    ]),
    "evals:",
    ...Array.from({ length: evals }, (_, i) => [
      `  - name: answer ${i + 1}`,
      `    response: "Answer ${i + 1}: ${"the queue drains in order. ".repeat(30)}"`,
      "    rubric: { ref: shared }",
    ]).flat(),
    "",
  ].join("\n");
}

describe("the prompt cache through the job queue", () => {
  test(
    "a prefix the API never caches is said once for the whole queued run",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, { promptCache: { minTokens: 1_000_000 } });
      await ws.write("suite.yaml", suite(3, "never cached"));
      const run = await ws.cli(["eval", "--config", "suite.yaml", "--queue"], {
        ...judge.env,
        DATABASE_URL: database.url,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(
        run.stderr.match(
          /warning: prompt cache: claude-sonnet-4-5 neither wrote nor read a prefix/g,
        ),
        run.stderr,
      ).toHaveLength(1);
    },
  );

  test(
    "a run expected to outlast five minutes asks for the 1-hour TTL, as eval does",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, { promptCache: { minTokens: 1024 } });
      // 14 evals × 3 criteria = 42 calls, one at a time: about 5.6 minutes at the assumed 8 s a call.
      await ws.write("long.yaml", suite(14, "long run"));
      const run = await ws.cli(["eval", "--config", "long.yaml", "--queue", "--concurrency", "1"], {
        ...judge.env,
        DATABASE_URL: database.url,
      });
      expect(run.code, run.stderr).toBe(0);
      const ttls = judge.api.requests.map((r) =>
        JSON.stringify(r.body).includes('"ttl":"1h"') ? "1h" : "5m",
      );
      expect(ttls).toHaveLength(42);
      expect(new Set(ttls)).toEqual(new Set(["1h"]));
    },
  );
});
