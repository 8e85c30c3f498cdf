import path from "node:path";
import { describe, expect, it } from "vitest";
import { measuredCli, writeLines } from "../support/measure-cli";
import { useTestDatabase } from "../support/test-database";
import { heldAfter, makeWorkspace, spawnCli, startFakeJudge, yaml } from "./cli-harness";

// `resume` reads the run's JSONL datasets as `eval` does, line by line (issue 20): a run over a
// dataset bigger than the heap is resumed in it. The run filters to a small eval (so the test
// grades three cells), while the suite's other eval names a 200 MB JSON Lines file, which the
// resumed run has to read again from where it ran: whole, it would not fit in a 128 MB heap.

const database = useTestDatabase();
const LINES = 3_200;
const LONG = "An answer that goes on and on. ".repeat(2_100); // ~64 KB a line

describe("resume of a run with a big dataset", () => {
  it("reads the dataset as a stream, in a heap smaller than the file", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await writeLines(path.join(ws.dir, "items.jsonl"), LINES, (i) =>
      JSON.stringify({ id: `q${i}`, input: `Question ${i}?`, expected_output: `${i}. ${LONG}` }),
    );
    await ws.write(
      "suite.yaml",
      yaml(
        "datasets:",
        "  big: { file: items.jsonl }",
        "evals:",
        "  - name: big",
        "    candidates: { dataset: big }",
        '    rubric: "The answer is correct (resume-stream)."',
        "  - name: small",
        '    response: "Refunds take a week."',
        '    rubric: "States the refund window (resume-stream)."',
        '    matrix: { prompts: ["one", "two", "three"] }',
      ),
    );
    // Two calls answered, the third held: the run is killed with two results stored.
    const held = heldAfter(2);
    onTestFinished(() => held.release());
    const judge = await startFakeJudge(onTestFinished, { respond: held.respond });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const cli = spawnCli({
      cwd: ws.dir,
      args: ["eval", "--config", "suite.yaml", "--filter", "^small$", "--concurrency", "1"],
      env,
    });
    let runId: string | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      runId ??= /Storing run ([0-9a-f-]{36})/.exec(cli.stderr())?.[1];
      if (runId && (await database.prisma.evalResultRow.count({ where: { runId } })) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(runId, cli.stderr()).toBeDefined();
    cli.child.kill("SIGKILL");
    await cli.exited;
    held.release();

    const resumed = await measuredCli({
      args: ["resume", runId!, "--reporter", "ndjson"],
      cwd: ws.dir,
      env: { ...process.env, ...env, NODE_OPTIONS: "--max-old-space-size=128" },
    });
    expect(resumed.stderr).not.toMatch(/heap limit|out of memory/i);
    expect(resumed.code, resumed.stderr.slice(-2000)).toBe(0);
    expect(resumed.stderr).toContain(`Resuming run ${runId}: 2 of 3 results already stored`);
    expect(await database.prisma.run.findUnique({ where: { id: runId } })).toMatchObject({
      status: "completed",
      passed: 3,
    });
  }, 300_000);
});
