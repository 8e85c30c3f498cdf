import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { measuredCli, writeLines } from "../support/measure-cli";
import { bigSuite, item, REASONING, wrong } from "../support/big-items";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { flipCountsText } from "../../lib/engine/trust/regrade/flip-counts";
import { candidateOf, makeWorkspace, startFakeJudge } from "./cli-harness";

// `regrade` of a big stored run in flat memory (issue 20): the source's results are matched by
// key a window at a time and its candidates read one cell at a time, never the run whole; through
// the real CLI, against the stand-in Messages API and a real database.

const database = useTestDatabase();

const SUITE = bigSuite;

/** With the strict rubric, every right answer whose number is a multiple of 5 fails too. */
const verdictOf = (request: { user: string; system: string }) => {
  const answer = candidateOf(request);
  const n = Number(/answer number (\d+)/.exec(answer)?.[1]);
  const fails = answer.startsWith("WRONG") || (request.system.includes("strict") && n % 5 === 0);
  return { verdict: { reasoning: REASONING, score: fails ? 0.1 : 0.9 } };
};

describe("regrade of a big stored run", () => {
  it("regrades 6,000 stored results in a 160 MB heap and says the flips page's counts", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: verdictOf });
    const items = 6_000;
    await writeLines(path.join(ws.dir, "items.jsonl"), items, item);
    await ws.write("suite.yaml", SUITE("The answer is correct (regrade-stream)."));
    const env = { ...process.env, ...judge.env, DATABASE_URL: database.url };
    const source = await measuredCli({
      args: ["eval", "--config", "suite.yaml", "--concurrency", "64", "--reporter", "ndjson"],
      cwd: ws.dir,
      env,
    });
    expect(source.code, source.stderr).toBe(1);
    const sourceId = /Storing run ([0-9a-f-]{36})/.exec(source.stderr)![1]!;

    await ws.write("strict.yaml", SUITE("The answer is correct and strict (regrade-stream)."));
    const asked = judge.api.requests.length;
    const run = await measuredCli({
      args: ["regrade", sourceId, "--config", "strict.yaml", "--reporter", "ndjson"],
      cwd: ws.dir,
      // The code before this read the source's 6,000 results (~90 MB of them) at once.
      env: { ...env, NODE_OPTIONS: "--max-old-space-size=160" },
    });
    expect(run.stderr).not.toMatch(/heap limit|out of memory/i);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`Regrading ${items} of ${items} results of run ${sourceId}`);
    expect(judge.api.requests.length - asked).toBe(items);
    const regradeId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
    // By hand: the right answers whose number is a multiple of 5 (and not of 3) now fail.
    let nowFail = 0;
    for (let i = 1; i <= items; i++) if (!wrong(i) && i % 5 === 0) nowFail++;
    const counts = await createRegradeViews(database.prisma).flipCounts({ runId: regradeId });
    expect(counts).toMatchObject({ nowFail, nowPass: 0, criteria: 0 });
    expect(run.stderr).toContain(`Against run ${sourceId}: ${flipCountsText(counts)}`);
    expect(run.stdout.trim().split("\n")).toHaveLength(items + 2);
    expect(run.peakMb).toBeLessThan(450);
  }, 900_000);
});
