import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-database";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";
import { createCalibrationStore } from "../../lib/store/calibration-store";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { createSuiteStore } from "../../lib/store/suite-store";
import type { Report } from "../../lib/engine/results/report";

// `calibrate` with run history and reporters, as a user runs it: the real CLI,
// the real SDK against the stand-in, a real database (PGlite, or Postgres 15
// through TEST_DATABASE_URL). A calibration is a run of its own kind: the
// calibration view reads it, the eval run lists never show it.

const database = useTestDatabase();

const SUITE = yaml(
  "evals:",
  "  - name: refunds",
  '    prompt: "Can I get a refund?"',
  '    response: "Yes, within 30 days."',
  "    rubric:",
  "      criteria:",
  "        - name: cites the policy",
  '          description: "Names the refund window."',
  "          examples:",
  '            - { response: "Refunds within 30 days of purchase.", score: 1.0 }',
  '            - { response: "Maybe, ask support <b>now</b>.", score: 0.0 }',
  "        - name: polite",
  '          description: "Polite tone."',
  "          examples:",
  '            - { response: "Happy to help!", score: 1.0 }',
);

describe("calibrate --store and --reporter", () => {
  it(
    "stores each calibration as a calibration run; md, html and json carry the calibration; eval lists do not show it",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      let round = 1;
      // Round 1: the judge gives the vague answer 0.6 (off by 0.6: an outlier). Round 2: 0.1 (within tolerance).
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) => {
          const candidate = candidateOf(request);
          if (candidate.startsWith("Maybe"))
            return {
              verdict: {
                reasoning: `Vague <i>round ${round}</i>.`,
                score: round === 1 ? 0.6 : 0.1,
              },
            };
          return { verdict: { reasoning: "Good.", score: 0.9 } };
        },
      });
      await ws.write("cal.yaml", SUITE);
      const env = { ...judge.env, DATABASE_URL: database.url };

      const first = await ws.cli(
        [
          "calibrate",
          "--config",
          "cal.yaml",
          "--reporter",
          "pretty,json,md,html",
          "--output",
          "reports",
        ],
        env,
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/Stored calibration run [0-9a-f-]{36}/);
      expect(first.stdout).toContain("! refunds › cites the policy (unit): MAE 0.350");

      const report = (await ws.readReport("reports/report.json")) as Report;
      expect(report.results).toEqual([]);
      expect(report.summary.judgeCalls).toBe(3);
      expect(report.calibration?.criteria.map((c) => [c.item, c.mae, c.outliers])).toEqual([
        ["cites the policy", expect.closeTo(0.35, 10), 1],
        ["polite", expect.closeTo(0.1, 10), 0],
      ]);
      const md = await ws.read("reports/report.md");
      expect(md).toContain("## Rubric Studio calibration: cal.yaml");
      expect(md).toContain("| refunds | cites the policy | unit | 2/2 | 0.350 |");
      // The outlier row: what was graded, labelled, judged, the error and the judge's reasoning, escaped.
      expect(md).toContain(
        "| refunds | cites the policy | anchor 2 | Maybe, ask support &lt;b&gt;now&lt;/b&gt;. | 0.00 | 0.60 | +0.60 | Vague &lt;i&gt;round 1&lt;/i&gt;. |",
      );
      const html = await ws.read("reports/report.html");
      expect(html).toContain("<h1>Rubric Studio calibration</h1>");
      expect(html).toContain("<td>Maybe, ask support &lt;b&gt;now&lt;/b&gt;.</td>");
      expect(html).not.toContain("<b>now</b>");

      round = 2;
      const second = await ws.cli(["calibrate", "--config", "cal.yaml", "--max-error", "0.2"], env);
      expect(second.code, second.stderr).toBe(0);

      const suite = await database.prisma.suite.findUniqueOrThrow({ where: { name: "cal.yaml" } });
      const calibrations = createCalibrationStore(database.prisma);
      const latest = await calibrations.latestCalibration(suite.id);
      expect(latest?.startedBy).toBe("cli");
      expect(latest?.yaml).toBe(SUITE);
      expect(latest?.result.maxError).toBe(0.2);
      expect(latest?.result.criteria.map((c) => [c.item, c.mae, c.outliers])).toEqual([
        ["cites the policy", expect.closeTo(0.1, 10), 0],
        ["polite", expect.closeTo(0.1, 10), 0],
      ]);
      expect(latest?.result.criteria[0]?.items.map((i) => [i.text, i.label, i.judged])).toEqual([
        ["Refunds within 30 days of purchase.", 1, 0.9],
        ["Maybe, ask support <b>now</b>.", 0, 0.1],
      ]);
      // Drift: the MAE of each criterion per calibration run, oldest first.
      const history = await calibrations.maeHistory({ suiteId: suite.id, limit: 20 });
      expect(history.map((h) => [h.item, h.points.map((p) => Number(p.mae!.toFixed(3)))])).toEqual([
        ["cites the policy", [0.35, 0.1]],
        ["polite", [0.1, 0.1]],
      ]);

      // An eval run next to them: the eval views see it, and only it.
      const evalRun = await ws.cli(["eval", "--config", "cal.yaml"], env);
      expect(evalRun.code, evalRun.stderr).toBe(0);
      const runs = await createRunViews(database.prisma).listRuns({ suiteId: suite.id, limit: 50 });
      expect(runs).toHaveLength(1);
      const all = await createRunViews(database.prisma).listRuns({ limit: 50 });
      expect(all.map((r) => r.id)).toEqual(runs.map((r) => r.id));
      expect((await createRunStore(database.prisma).latestRun({ suiteName: "cal.yaml" }))?.id).toBe(
        runs[0]!.id,
      );
      const listed = (await createSuiteStore(database.prisma).listSuites()).find(
        (s) => s.id === suite.id,
      );
      expect(listed?.lastRun?.id).toBe(runs[0]!.id);
      expect(await createRunViews(database.prisma).runOverview(latest!.runId)).toBeUndefined();
      // Nor can `resume`, `report` or `--baseline` take a calibration run for an eval run.
      expect(await createRunStore(database.prisma).getRun(latest!.runId)).toBeUndefined();
    },
  );

  it(
    "--suite files the calibration under a dashboard suite whose name is not the file's (a download saved as 'big twelve.yaml')",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "Good.", score: 0.9 } }),
      });
      const dashboard = await createSuiteStore(database.prisma).createSuite({
        name: "big twelve",
        yaml: SUITE,
      });
      if (!dashboard.ok) throw new Error(dashboard.message);
      await ws.write("big twelve.yaml", SUITE);
      const run = await ws.cli(
        ["calibrate", "--config", "big twelve.yaml", "--store", "--suite", "big twelve"],
        { ...judge.env, DATABASE_URL: database.url },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(
        (await createCalibrationStore(database.prisma).latestCalibration(dashboard.value.id))
          ?.startedBy,
      ).toBe("cli");
      expect(
        await database.prisma.suite.findUnique({ where: { name: "big twelve.yaml" } }),
      ).toBeNull();
    },
  );

  it("refuses a format that cannot carry a calibration", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("cal.yaml", SUITE);
    const run = await ws.cli(["calibrate", "--config", "cal.yaml", "--reporter", "junit"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("calibrate writes pretty, json, md, html; not junit");
  });
});
