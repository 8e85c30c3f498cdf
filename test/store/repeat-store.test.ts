import { describe, expect, it } from "vitest";
import { runRepeated } from "../../lib/engine/run-repeated";
import { createRepeatStore } from "../../lib/store/repeat-store";
import { createRunStore } from "../../lib/store/run-store";
import { createFakeJudge } from "../support/fake-judge";
import { suiteFrom } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// `eval --repeat N --store`: the repeated run is kept (every result once per
// repeat) with its flip rates per criterion, read back as the engine made them.

const db = useTestDatabase();
const CONFIG = {
  file: "suite.yaml",
  toolVersion: "0.1.0",
  judgeModel: "claude-sonnet-4-5",
  concurrency: 4,
  timeoutSeconds: 60,
};

const SUITE = `
evals:
  - name: summary
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric:
      criteria:
        - { name: accurate, description: "States the correct change." }
        - { name: concise, description: "Two sentences at most." }
`;

describe("a repeated run in the store", () => {
  it("keeps every repeat's results and the flip rate per criterion", async () => {
    // "accurate" passes in repeat 1 and fails in repeats 2 and 3; "concise" always passes.
    let accurateCalls = 0;
    const judge = createFakeJudge((request) =>
      request.taskPrompt.includes(`"accurate"`)
        ? { score: ++accurateCalls === 1 ? 0.9 : 0.3 }
        : { score: 0.9 },
    );
    const report = await runRepeated(
      {
        suite: suiteFrom(SUITE),
        defaultModel: "claude-sonnet-4-5",
        concurrency: 2,
        toolVersion: "0.1.0",
        repeat: 3,
      },
      { judge, now: () => 0, priceOf: () => undefined },
    );
    const repeats = createRepeatStore(db.prisma);
    const runId = await repeats.saveRepeatedRun({
      suiteName: "repeat-suite",
      yaml: SUITE,
      report,
      config: CONFIG,
    });

    const stored = await repeats.flipRates(runId);
    expect(stored?.runs).toBe(3);
    const rate = (item: string) =>
      stored?.flips.find((f) => f.eval === "summary" && f.item === item);
    expect(rate("accurate")).toMatchObject({
      items: 1,
      flipped: 1,
      rate: 1,
      flippedIds: ["summary"],
    });
    expect(rate("concise")).toMatchObject({ items: 1, flipped: 0, rate: 0 });

    const results = await createRunStore(db.prisma).results(runId);
    expect(results.map((r) => r.name)).toEqual([
      "summary [repeat 1/3]",
      "summary [repeat 2/3]",
      "summary [repeat 3/3]",
    ]);
    const run = await createRunStore(db.prisma).getRun(runId);
    expect(run).toMatchObject({ status: "completed", totalCells: 3 });
  });

  it("has no flip rates for a plain run, nor for an id that is not one", async () => {
    const runs = createRunStore(db.prisma);
    const version = await runs.saveSuiteVersion({ name: "plain-suite", yaml: SUITE });
    const runId = await runs.createRun({
      ...version,
      startedBy: "cli",
      config: CONFIG,
      totalCells: 0,
    });
    const repeats = createRepeatStore(db.prisma);
    expect(await repeats.flipRates(runId)).toBeUndefined();
    expect(await repeats.flipRates("not-a-uuid")).toBeUndefined();
  });
});
