import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { seedBigRun } from "../../bench/seed-big-run";
import { flipCountsText } from "../../lib/engine/trust/regrade/flip-counts";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { measuredCli } from "../support/measure-cli";
import { useTestDatabase } from "../support/test-database";

// `report RUN_ID` of a big regrade (over the 10,000 results above which it streams) in a format
// written as it goes: streamed in bounded memory like a plain run's, each result beside its
// source's verdict, ending with the flips page's tally (counted in SQL), whether the regrade
// came from the dashboard (no gate) or from `regrade` (gated on its source).

const database = useTestDatabase();
const RESULTS = 10_400;

describe("report RUN_ID of a big regrade", () => {
  it(
    "streams ndjson in a 160 MB heap with each result's previous verdict, and ends with the flips' tally",
    {
      timeout: 900_000,
    },
    async () => {
      // The same seeded results twice (the seed is fixed): a source and its regrade, ~6 KB each.
      const source = await seedBigRun({ url: database.url, results: RESULTS, criteria: 2 });
      const regrade = await seedBigRun({
        url: database.url,
        results: RESULTS,
        criteria: 2,
        suiteName: "big-regrade.yaml",
      });
      const pad = "x".repeat(5_000);
      await database.prisma.$executeRaw`
      UPDATE eval_results SET data = jsonb_set(data, '{reason}', to_jsonb(${pad}::text))
      WHERE run_id IN (${source.runId}::uuid, ${regrade.runId}::uuid)`;
      // A tenth of the passed results now fail.
      const flipped = await database.prisma.$executeRaw`
      UPDATE eval_results SET status = 'failed', score = 0.1,
        data = data || '{"status": "failed", "score": 0.1}'::jsonb
      WHERE run_id = ${regrade.runId}::uuid AND status = 'passed' AND abs(hashtext(result_key)) % 10 = 0`;
      expect(flipped).toBeGreaterThan(100);
      // The dashboard's regrade: linked to its source, no gate. The seeded suites name 2,600
      // evals; a report needs only the suite's file and prices.
      await database.prisma.$executeRaw`
      UPDATE runs SET regrade_of = ${source.runId}::uuid,
        config = config || jsonb_build_object('regradeOf', ${source.runId}::text)
      WHERE id = ${regrade.runId}::uuid`;
      await database.prisma.$executeRaw`
      UPDATE suite_versions SET yaml = ${'evals:\n  - name: one\n    response: "x"\n    rubric: "Answers."\n'}
      WHERE suite_id IN (${source.suiteId}::uuid, ${regrade.suiteId}::uuid)`;
      const counts = await createRegradeViews(database.prisma).flipCounts({
        runId: regrade.runId,
      });
      expect(counts.nowFail).toBe(flipped);

      const dir = await mkdtemp(path.join(os.tmpdir(), "report-regrade-stream-"));
      try {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          DATABASE_URL: database.url,
          NODE_OPTIONS: "--max-old-space-size=160",
        };
        for (const name of Object.keys(env))
          if (/^(ANTHROPIC_|OPENAI_|RUBRIC_STUDIO_)/.test(name)) delete env[name];
        const report = (file: string) =>
          measuredCli({
            args: ["report", regrade.runId, "--reporter", "ndjson", "--output", file],
            cwd: dir,
            env,
          });
        /** The result lines of an ndjson report, read as a stream: how many, and how many carry `previous`. */
        const read = async (file: string) => {
          let results = 0;
          let previous = 0;
          let nowFail = 0;
          const lines = createInterface({ input: createReadStream(path.join(dir, file)) });
          for await (const line of lines) {
            const event = JSON.parse(line) as {
              type: string;
              status?: string;
              previous?: { status: string };
            };
            if (event.type !== "result") continue;
            results++;
            if (event.previous) previous++;
            if (event.previous?.status === "passed" && event.status === "failed") nowFail++;
          }
          return { results, previous, nowFail };
        };
        const tally = `Against run ${source.runId}: ${flipCountsText(counts)}`;

        // The dashboard's regrade: the tally a smaller one ends with.
        const dashboard = await report("dashboard.ndjson");
        expect(dashboard.stderr).not.toMatch(/heap limit|out of memory/i);
        expect(dashboard.code, dashboard.stderr).toBe(1); // the seeded runs have failures
        expect(dashboard.stderr).toContain(`${tally}\n`);
        expect(await read("dashboard.ndjson")).toEqual({
          results: RESULTS,
          previous: RESULTS,
          nowFail: flipped,
        });

        // `regrade`'s: gated on its source, which the report applies again, streamed all the same.
        await database.prisma.$executeRaw`
        UPDATE runs SET config = config || jsonb_build_object('baseline',
          jsonb_build_object('runId', ${source.runId}::text, 'maxDrop', 0.05))
        WHERE id = ${regrade.runId}::uuid`;
        const cli = await report("cli.ndjson");
        expect(cli.stderr).not.toMatch(/heap limit|out of memory/i);
        expect(cli.code, cli.stderr).toBe(1);
        expect(cli.stderr).toContain(
          `${tally}; ${flipped.toLocaleString("en-US")} regressions at --max-drop 0.05 (${flipped.toLocaleString("en-US")} that now fail`,
        );
        expect(await read("cli.ndjson")).toEqual({
          results: RESULTS,
          previous: RESULTS,
          nowFail: flipped,
        });
        console.log(`peak RSS: dashboard ${dashboard.peakMb} MB, cli ${cli.peakMb} MB`);
        expect(cli.peakMb).toBeLessThan(450);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
