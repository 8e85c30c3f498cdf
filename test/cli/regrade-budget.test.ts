import { expect, it } from "vitest";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, invoiceSuite } from "./cli-harness";

// A regrade cut short by its budget (the source run's --max-cost, which `regrade` keeps): what it
// could not grade is skipped (budget), neither a pass nor a fail. The flips page's tally, the
// regrade's own tally and its gate give one answer: not graded, never "now fails", no regression.

const database = useTestDatabase();

const EVALS = 6;
const SUITE = invoiceSuite(EVALS);

interface Json {
  runId: string;
  summary: { skipped: number };
  results: { name: string; status: string; skipKind?: string }[];
}

it(
  "a result skipped for budget where the source passed is not graded: on the flips page, in regrade's tally and its gate",
  {
    timeout: 120_000,
  },
  async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished);
    const env = { ...judge.env, DATABASE_URL: database.url };
    await ws.write("suite.yaml", SUITE);
    const explain = await ws.cli(["eval", "--explain", "--config", "suite.yaml"], env);
    const projected = Number(/projected cost ~\$(\d+\.\d+)$/m.exec(explain.stdout)?.[1]);
    expect(projected, explain.stdout).toBeGreaterThan(0);

    // The source: every eval graded within its budget, and passed.
    const budget = (projected * 1.05).toFixed(6);
    const first = await ws.cli(
      ["eval", "--config", "suite.yaml", "--max-cost", budget, "--reporter", "json"],
      env,
    );
    expect(first.code, first.stderr).toBe(0);
    const source = JSON.parse(first.stdout) as Json;
    expect(source.results.every((r) => r.status === "passed")).toBe(true);

    // Again with a judge three times the price, under the same budget: some are skipped (budget).
    const again = await ws.cli(
      ["regrade", source.runId, "--judge", "claude-sonnet-4-6", "--reporter", "json"],
      env,
    );
    const report = JSON.parse(again.stdout) as Json;
    const skipped = report.results.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => r.skipKind === "budget")).toBe(true);
    const passed = EVALS - skipped.length;
    expect(report.results.filter((r) => r.status === "passed")).toHaveLength(passed);
    // Exit 1 for the skips (as eval), and no regression in the gate.
    expect(again.code).toBe(1);

    // The flips page's tally (the store's query): not graded, never "now fails".
    const counts = await createRegradeViews(database.prisma).flipCounts({ runId: report.runId });
    expect(counts).toEqual({
      nowFail: 0,
      nowPass: 0,
      criteria: 0,
      notGraded: skipped.length,
      moved: 0,
      unchanged: passed,
    });
    const page = await createRegradeViews(database.prisma).flipPage({ runId: report.runId });
    expect(page.pairs.map((p) => p.kind)).toEqual(skipped.map(() => "not_graded"));

    // regrade's own line says the same, and the gate counts no regression.
    expect(again.stderr).toContain(
      `Against run ${source.runId}: 0 flips; ${skipped.length} not graded; ${passed} unchanged\n`,
    );
    expect(again.stderr).not.toMatch(/now fail|regression/);
    expect(again.stderr).toMatch(/^ {2}not graded {9} {2}answer \d+ {2}passed [\d.]+ → skipped —/m);
  },
);
