import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seedBigRun } from "../../bench/seed-big-run";
import { CLI_BIN, runCli } from "../support/run-cli";
import { useTestDatabase } from "../support/test-database";

// `report RUN_ID --reporter ndjson` of a run of 20,000 stored results (over the 10,000 above which it streams) writes as it reads: its
// first lines come out before the last results are read from the database (results deleted
// once the first lines arrived are not in the report), and it writes no faster than its reader
// takes the lines (a pipe not read holds it, not a growing buffer). Its times are the run's (its
// start, not when it was created), its summary has the judge agreement, and junit streams too.

const database = useTestDatabase();
const RESULTS = 20_000;
const GONE = 1_000;

describe("report RUN_ID of a big run", () => {
  it(
    "streams ndjson: the first lines before the last results are read, every line in the suite's order, the summary over what was written",
    {
      timeout: 900_000,
    },
    async () => {
      const seeded = await seedBigRun({ url: database.url, results: RESULTS, criteria: 2 });
      console.log(`seeded ${RESULTS} results in ${(seeded.ms / 1000).toFixed(0)} s`);
      // The seeded suite names 12,500 evals; a report needs only the suite's file and prices.
      await database.prisma
        .$executeRaw`UPDATE suite_versions SET yaml = ${'evals:\n  - name: one\n    response: "x"\n    rubric: "Answers."\n'} WHERE suite_id = ${seeded.suiteId}::uuid`;
      // Created a day before it started (queued, say): the report's times are from its start.
      await database.prisma
        .$executeRaw`UPDATE runs SET created_at = started_at - interval '1 day' WHERE id = ${seeded.runId}::uuid`;
      const times = await database.prisma.run.findUniqueOrThrow({
        where: { id: seeded.runId },
        select: { startedAt: true, finishedAt: true },
      });
      const startedAt = times.startedAt!.toISOString();
      const durationMs = times.finishedAt!.getTime() - times.startedAt!.getTime();

      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url };
      for (const name of Object.keys(env))
        if (/^(ANTHROPIC_|OPENAI_|RUBRIC_STUDIO_)/.test(name)) delete env[name];
      const child = spawn(
        process.execPath,
        [CLI_BIN, "report", seeded.runId, "--reporter", "ndjson"],
        {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      let stdout = "";
      // The first lines; then the reader stops reading while results are deleted.
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.split("\n").length > 2) {
            child.stdout.pause();
            child.stdout.off("data", onData);
            resolve();
          }
        };
        child.stdout.on("data", onData);
        child.once("exit", () =>
          reject(new Error(`report exited before its first lines: ${stderr}`)),
        );
      });
      const deleted = await database.prisma.$executeRaw`
      DELETE FROM eval_results WHERE id IN (
        SELECT id FROM eval_results WHERE run_id = ${seeded.runId}::uuid ORDER BY suite_order DESC, id DESC LIMIT ${GONE})`;
      expect(deleted).toBe(GONE);
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stdout.resume();
      const code = await exited;
      await new Promise((resolve) => setImmediate(resolve));

      expect(code, stderr).toBe(1); // the seeded run has failures
      const events = stdout
        .trim()
        .split("\n")
        .map(
          (line) =>
            JSON.parse(line) as { type: string; name?: string; index?: number; total?: number },
        );
      expect(events[0]).toMatchObject({ type: "start", total: RESULTS, startedAt });
      const results = events.filter((e) => e.type === "result");
      expect(results).toHaveLength(RESULTS - GONE);
      expect(results.at(-1)!.index).toBe(RESULTS - GONE);
      expect(events.at(-1)).toMatchObject({ type: "summary", total: RESULTS - GONE, durationMs });
      const evalNumbers = results.map((r) => Number(/#(\d+)/.exec(r.name!)?.[1]));
      expect(evalNumbers.every((n, i) => i === 0 || n >= evalNumbers[i - 1]!)).toBe(true);
      expect(stderr).not.toContain("left out");

      // junit streams too (its results wait on disk for its counts), with the run's start.
      const dir = await mkdtemp(path.join(os.tmpdir(), "report-stream-"));
      try {
        const junit = await runCli(
          ["report", seeded.runId, "--reporter", "junit", "--output", "out.xml"],
          { cwd: dir, env: { DATABASE_URL: database.url }, timeoutMs: 600_000 },
        );
        expect(junit.code, junit.stderr).toBe(1);
        const xml = await readFile(path.join(dir, "out.xml"), "utf8");
        expect(xml).toMatch(
          new RegExp(`<testsuites name="rubric-studio" tests="${RESULTS - GONE}"`),
        );
        expect(xml).toContain(`timestamp="${startedAt}"`);
        expect(xml.match(/<testcase /g)).toHaveLength(RESULTS - GONE);
        expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);

        // The pretty report of the same run has the judge agreement of the whole report.
        const pretty = await runCli(["report", seeded.runId, "--reporter", "pretty"], {
          cwd: dir,
          env: { DATABASE_URL: database.url, NO_COLOR: "1" },
          timeoutMs: 600_000,
        });
        expect(pretty.code, pretty.stderr).toBe(1);
        expect(pretty.stdout).toMatch(/agreement/i);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
