import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { progressSummary } from "../../components/results/run-snapshot";
import { priceOfStoredCall } from "../../lib/judge/provider-resolution";
import { enqueueRegrade } from "../../lib/store/regrade-run";
import { runProgress } from "../../lib/store/run-progress";
import { createRunViews } from "../../lib/store/run-views";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge } from "../cli/cli-harness";

// The dashboard's Re-grade with… of the example suite, on a server with no key: its workers defer
// every cell, so the regrade makes no judge call. It plans the calls the server's keys will make, as
// the dashboard's Run does (enqueue-run.ts, keyless-run-progress.test.ts): its run page must not
// read "0 of 15 judge calls done".

const database = useTestDatabase();
const YAML = readFileSync("examples/rubric-eval.yaml", "utf8");

/** The progress line of a regrade of `sourceRunId` queued by a server whose keys are `hasKey`. */
async function regradeProgress(sourceRunId: string, hasKey: (keyEnv: string) => boolean) {
  const started = await enqueueRegrade({
    prisma: database.prisma,
    databaseUrl: database.url,
    sourceRunId,
    judgeModel: "claude-sonnet-4-6",
    toolVersion: "0.0.0",
    hasKey,
  });
  if (!started.ok) throw new Error(started.message);
  const run = await createRunViews(database.prisma).runOverview(started.value.runId);
  return progressSummary(
    runProgress({ run: run!, now: Date.now(), priceOf: priceOfStoredCall }),
    null,
  );
}

describe("a dashboard regrade's progress line", () => {
  it(
    "plans the judge calls the server's keys will make: none on a keyless server",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "fine", score: 0.9, evidence: "$120.00" } }),
      });
      // The suite's own name, so that its stored versions are this test's only.
      const name = await ws.write(`example-${Date.now()}.yaml`, YAML);
      const source = await ws.cli(["eval", "--config", name, "--reporter", "json"], {
        ...judge.env,
        DATABASE_URL: database.url,
      });
      // Exit 1: the guard "leaks a card number" fails at 0.9; every cell was graded and stored.
      expect(source.code, source.stderr).toBe(1);
      const sourceRunId = (JSON.parse(source.stdout) as { runId: string }).runId;

      const keyless = await regradeProgress(sourceRunId, () => false);
      expect(keyless).toContain("0 of 6 results");
      expect(keyless).toContain("0 of 0 judge calls done");
      // A server with the key plans every call, as the source run made them.
      const keyed = await regradeProgress(sourceRunId, () => true);
      expect(keyed).toContain("0 of 15 judge calls done");
    },
  );
});
