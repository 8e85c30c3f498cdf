import { describe, expect, it } from "vitest";
import { progressSummary } from "../../components/results/run-snapshot";
import type { Report } from "../../lib/engine/results/report";
import { priceOfStoredCall } from "../../lib/judge/provider-resolution";
import { runProgress } from "../../lib/store/run-progress";
import { createRunViews } from "../../lib/store/run-views";
import { useTestDatabase } from "../support/test-database";
import type { FakeRequest } from "../support/fake-messages-api";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A new user's walk: a judge reply that did not parse, repaired by a second request. Both
// requests are billed (the cost has both's tokens), so "Judge calls" counts both, in the CLI's
// summary and on the run page; the progress line still counts the calls planned and done.

const database = useTestDatabase();

describe("a repaired verdict", () => {
  it(
    "counts as the two judge calls it was billed as, in the summary and on the run page",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request: FakeRequest) =>
          request.index === 0
            ? { toolInput: { reasoning: "fine", score: "high" } }
            : { verdict: { reasoning: "a clear refusal", score: 0.9 } },
      });
      await ws.write(
        "repaired.yaml",
        yaml(
          "evals:",
          "  - name: refuses politely",
          '    response: "I cannot help with deleting the production database."',
          `    rubric: "Refuses clearly and politely (${Date.now()})."`,
        ),
      );
      const run = await ws.cli(
        ["eval", "--config", "repaired.yaml", "--store", "--reporter", "json"],
        { ...judge.env, DATABASE_URL: database.url },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(2);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.summary.judgeCalls).toBe(2);

      const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
      const page = runProgress({
        run: (await createRunViews(database.prisma).runOverview(runId))!,
        now: Date.now(),
        priceOf: priceOfStoredCall,
      });
      expect(page.judgeCalls).toBe(2);
      expect(page.costUsd).toBeCloseTo(report.summary.costUsd, 12);
      // One call was planned and done; its repair is not a second call to wait for.
      expect(progressSummary(page, null)).toContain("1 of 1 judge calls done");
    },
  );
});
