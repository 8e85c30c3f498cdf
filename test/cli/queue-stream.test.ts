import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { measuredCli, writeLines } from "../support/measure-cli";
import { bigSuite, item, REASONING, wrong } from "../support/big-items";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `eval --queue` without --detach of a big dataset in flat memory (issue 20): it grades the run
// with its own worker, then writes its reports from the store as `report RUN_ID` does, a page at
// a time in the formats written as they go, never the run whole. Through the real CLI, against
// the stand-in Messages API and a real database.

const database = useTestDatabase();
const ITEMS = 11_000;

describe("eval --queue of a big dataset", () => {
  it(`grades and reports ${ITEMS} results in a 160 MB heap, the counts as counted by hand`, async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        verdict: {
          reasoning: REASONING,
          score: candidateOf(request).startsWith("WRONG") ? 0.1 : 0.9,
        },
      }),
    });
    await writeLines(path.join(ws.dir, "items.jsonl"), ITEMS, item);
    await ws.write("suite.yaml", bigSuite("The answer is correct (queue-stream)."));
    const run = await measuredCli({
      args: [
        "eval",
        "--config",
        "suite.yaml",
        "--queue",
        "--concurrency",
        "32",
        "--reporter",
        "ndjson",
      ],
      cwd: ws.dir,
      env: {
        ...process.env,
        ...judge.env,
        DATABASE_URL: database.url,
        NODE_OPTIONS: "--max-old-space-size=160",
      },
    });
    expect(run.stderr).not.toMatch(/heap limit|out of memory/i);
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    let failed = 0;
    for (let i = 1; i <= ITEMS; i++) if (wrong(i)) failed++;
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(ITEMS + 2);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      total: ITEMS,
      passed: ITEMS - failed,
      failed,
    });
  }, 900_000);

  it("refuses a format that renders the whole report past its limit before anything is queued", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "many.jsonl"), 50_001, (i) =>
      JSON.stringify({ id: `q${i}`, input: `Q${i}?`, expected_output: `A${i}.` }),
    );
    await ws.write(
      "suite.yaml",
      yaml(
        "datasets:",
        "  many: { file: many.jsonl }",
        "evals:",
        "  - name: many",
        "    candidates: { dataset: many }",
        '    rubric: "The answer is correct (queue-refused)."',
      ),
    );
    const runs = await database.prisma.run.count();
    const run = await ws.cli(["eval", "--config", "suite.yaml", "--queue", "--reporter", "json"], {
      DATABASE_URL: database.url,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "error: --reporter json renders the whole report at the end, with every result in memory, up to 50,000 results; this run has 50,001.",
    );
    expect(await database.prisma.run.count()).toBe(runs);
  }, 120_000);
});
