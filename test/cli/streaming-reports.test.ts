import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { WHOLE_REPORT_LIMIT, wholeReportRefusal } from "../../lib/cli/stream-reports";
import { candidateOf, makeWorkspace, startFakeJudge, invoiceSuite } from "./cli-harness";

// Issue 20: the reports of `eval` are written as the run goes, not at its end.
// The stand-in holds the last eval's verdict until the test has read the
// earlier results in the report files, so a report written only at the end
// can never pass: the run cannot end before the test has seen those lines.

const EVALS = 6;
const SUITE = invoiceSuite(EVALS);

const LAST = `Invoice ${EVALS} totaled`;

async function readOr(file: string): Promise<string> {
  return readFile(file, "utf8").catch(() => "");
}

/** Polls until every file shows `earlier` results, or the time is up; what each held then. */
async function seenWhileHeld(files: Record<string, (text: string) => number>, dir: string) {
  const deadline = Date.now() + 10_000;
  let counts: Record<string, number> = {};
  while (Date.now() < deadline) {
    counts = {};
    for (const [name, count] of Object.entries(files))
      counts[name] = count(await readOr(path.join(dir, name)));
    if (Object.values(counts).every((n) => n >= EVALS - 1)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return counts;
}

test("ndjson, tap and csv show each result in their files while the run is still going", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const judge = await startFakeJudge(onTestFinished, {
    respond: async (request) => {
      if (candidateOf(request).startsWith(LAST)) await held;
      return { verdict: { reasoning: "states it", score: 0.9 } };
    },
  });
  onTestFinished(() => release());
  await ws.write("suite.yaml", SUITE);

  const run = ws.cli(
    ["eval", "--config", "suite.yaml", "--reporter", "ndjson,tap,csv", "--output", "out"],
    judge.env,
  );
  const dir = path.join(ws.dir, "out");
  // Each format's own mark of a result: an ndjson result event, a TAP test point, a CSV row.
  const whileHeld = await seenWhileHeld(
    {
      "report.ndjson": (t) => t.split("\n").filter((l) => l.startsWith('{"type":"result"')).length,
      "report.tap": (t) => t.split("\n").filter((l) => /^ok \d+ - answer/.test(l)).length,
      "report.csv": (t) => t.split("\r\n").filter((l) => l.startsWith("answer ")).length,
    },
    dir,
  );
  // The last verdict was never sent: the run is still going.
  expect(judge.api.inFlight()).toBe(1);
  release();
  const done = await run;

  expect(whileHeld).toEqual({
    "report.ndjson": EVALS - 1,
    "report.tap": EVALS - 1,
    "report.csv": EVALS - 1,
  });
  expect(done.code, done.stderr).toBe(0);
  const ndjson = (await ws.read("out/report.ndjson")).trimEnd().split("\n");
  expect(ndjson.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual([
    "start",
    ...Array(EVALS).fill("result"),
    "summary",
  ]);
  expect(JSON.parse(ndjson.at(-1)!)).toMatchObject({
    type: "summary",
    total: EVALS,
    passed: EVALS,
  });
  const tap = await ws.read("out/report.tap");
  expect(tap).toMatch(/^TAP version 14\n1\.\.6\n/);
  expect(tap).toContain(`ok ${EVALS} - answer ${EVALS}`);
  expect((await ws.read("out/report.csv")).split("\r\n").filter(Boolean)).toHaveLength(EVALS + 1);
});

test("a format that renders the whole report is refused past its limit, the message naming those that stream", () => {
  // Through the CLI this needs a plan past 50,000 results, which the suite limits (10,000 cells) do not allow yet.
  expect(wholeReportRefusal(["pretty", "json"], WHOLE_REPORT_LIMIT)).toBeUndefined();
  expect(wholeReportRefusal(["ndjson", "junit"], 1_000_000)).toBeUndefined();
  expect(wholeReportRefusal(["pretty", "json", "html"], 54_000)).toBe(
    "--reporter json,html renders the whole report at the end, with every result in memory, up to 50,000 results; this run has 54,000. Use a format that is written as the run goes: --reporter junit, sarif, ndjson, tap, csv (with --output FILE)",
  );
});
