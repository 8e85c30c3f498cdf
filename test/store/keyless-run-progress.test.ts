import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { progressSummary } from "../../components/results/run-snapshot";
import { priceOfStoredCall } from "../../lib/judge/provider-resolution";
import { enqueueSuiteRun } from "../../lib/store/enqueue-run";
import { createRunStore } from "../../lib/store/run-store";
import { runProgress } from "../../lib/store/run-progress";
import { createRunViews } from "../../lib/store/run-views";
import { useTestDatabase } from "../support/test-database";

// A new user's walk: the example suite run from the dashboard of a server with no key. Every cell
// defers, so the run makes no judge call: its run page says so, as the CLI's Grading line does
// ("Grading 5 evals (6 cells): 0 judge calls, projected ~$0"), never "0 of 15 judge calls done".

const database = useTestDatabase();
const YAML = readFileSync("examples/rubric-eval.yaml", "utf8");

describe("a keyless dashboard run's progress line", () => {
  it("plans the judge calls the server will make: none", async () => {
    const { suiteId } = await createRunStore(database.prisma).saveSuiteVersion({
      name: `keyless example ${Date.now()}`,
      yaml: YAML,
    });
    const started = await enqueueSuiteRun({
      prisma: database.prisma,
      databaseUrl: database.url,
      suiteId,
      yaml: YAML,
      judgeModel: "claude-sonnet-4-6",
      toolVersion: "0.0.0",
      hasKey: () => false,
    });
    if (!started.ok) throw new Error(started.message);
    const run = await createRunViews(database.prisma).runOverview(started.value.runId);
    const line = progressSummary(
      runProgress({ run: run!, now: Date.now(), priceOf: priceOfStoredCall }),
      null,
    );
    expect(line).toContain("0 of 6 results");
    expect(line).toContain("0 of 0 judge calls done");
  }, 60_000);
});
