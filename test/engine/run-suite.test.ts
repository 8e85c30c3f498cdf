import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { always, byCriterion, createFakeJudge, type FakeScript } from "../support/fake-judge";
import { runYaml, SUITE_FILE } from "../support/run-yaml";
import { exitCodeOf, type RunEvent } from "../../lib/engine/run-suite";

// A whole run: the report's summary, the events a progress display follows,
// the exit code, and every example of the guide run end to end.

// One eval of each outcome a run can have.
const mixed = `
description: release checks
evals:
  - name: passes
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: "Accurate summary."
  - name: fails
    response: "Something changed."
    rubric: "Accurate summary."
  - name: judge error
    response: "The 2.3.0 release."
    rubric: "Accurate summary."
  - name: deferred
    prompt: "Summarize the release."
    rubric: "Accurate summary."
  - name: vacuous
    response: "All good."
    rubric:
      criteria:
        - name: apologizes on error
          description: "Apologizes."
          when: { contains: "error" }
`;

const mixedScript: FakeScript = (request) => {
  if (request.candidatePrompt.includes("The 2.3.0 release added"))
    return {
      score: 0.9,
      costUsd: 0.01,
      usage: { input: 100, output: 20, cacheRead: 50, cacheWrite: 0 },
    };
  if (request.candidatePrompt.includes("Something changed."))
    return {
      score: 0.1,
      costUsd: 0.02,
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 30 },
    };
  return { error: "malformed", message: "not a verdict" };
};

describe("runSuite", () => {
  it("reports every outcome with its own status and counts them in the summary", async () => {
    const report = await runYaml(mixed, { judge: createFakeJudge(mixedScript) });
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ["passes", "passed"],
      ["fails", "failed"],
      ["judge error", "judge_error"],
      ["deferred", "deferred"],
      ["vacuous", "passed"],
    ]);
    expect(report.summary).toEqual({
      total: 5,
      passed: 2,
      failed: 1,
      deferred: 1,
      judgeErrors: 1,
      skipped: 0,
      vacuous: 1,
      judgeCalls: 3,
      costUsd: 0.03,
      usage: { input: 110, output: 25, cacheRead: 50, cacheWrite: 30 },
      // No price table in this run: the cache's tokens are counted, its dollars unpriced.
      savings: expect.objectContaining({
        promptCache: expect.objectContaining({
          readTokens: 50,
          writeTokens: 30,
          net: { usd: null, unpriced: true },
        }),
      }),
    });
    expect(report).toMatchObject({
      schemaVersion: 1,
      tool: { name: "rubric-studio", version: "0.0.0-test" },
      suite: { file: SUITE_FILE, description: "release checks" },
    });
    expect(report.durationMs).toBeGreaterThan(0);
    expect(report.results[0]!.location).toMatchObject({ file: SUITE_FILE, line: 4 });
  });

  it("tells a progress display what it plans, each call and each result", async () => {
    const events: RunEvent[] = [];
    await runYaml(mixed, { judge: createFakeJudge(mixedScript), events, concurrency: 1 });
    expect(events[0]).toEqual({ type: "start", evals: 5, judgeCalls: 3 });
    expect(events.filter((e) => e.type === "call").map((e) => e.type === "call" && e.done)).toEqual(
      [1, 2, 3],
    );
    const results = events.filter((e) => e.type === "result");
    expect(results).toHaveLength(5);
    expect(results.map((e) => e.type === "result" && e.done).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("plans a tree's longest path but counts only the calls its walk made", async () => {
    const yaml = `
evals:
  - name: tree
    response: "I called get_weather: 18C."
    rubric:
      tree:
        ask: "Did the answer call a tool?"
        yes: { score: 1 }
        no:
          ask: "Did it say why not?"
          yes: { score: 0.4 }
          no: { score: 0 }
`;
    const events: RunEvent[] = [];
    // The longest path is on the no side; this walk answers yes at once.
    const report = await runYaml(yaml, { judge: createFakeJudge(always({ score: 1 })), events });
    expect(events[0]).toEqual({ type: "start", evals: 1, judgeCalls: 2 });
    expect(events.filter((e) => e.type === "call")).toHaveLength(1);
    expect(report.summary.judgeCalls).toBe(1);
    expect(report.results[0]!.judgeCalls).toBe(1);
  });
});

describe("exitCodeOf", () => {
  const one = (rubric: string) => `
evals:
  - name: only
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: ${rubric}
`;

  it("is 0 when every eval passed", async () => {
    expect(
      exitCodeOf(
        await runYaml(one('"Accurate."'), { judge: createFakeJudge(always({ score: 1 })) }),
      ),
    ).toBe(0);
  });

  it("is 0 when evals were only deferred (they count as passed)", async () => {
    const report = await runYaml(one('"Accurate."'), {
      judge: createFakeJudge(always({ score: 0 })),
      judgeUnavailable: "no judge key",
    });
    expect(report.summary.deferred).toBe(1);
    expect(exitCodeOf(report)).toBe(0);
  });

  it("is 1 when an eval failed", async () => {
    expect(
      exitCodeOf(
        await runYaml(one('"Accurate."'), { judge: createFakeJudge(always({ score: 0.5 })) }),
      ),
    ).toBe(1);
  });

  it("is 1 on a judge_error, even when every other eval passed", async () => {
    const report = await runYaml(
      mixed.replace(/ {2}- name: fails[\s\S]*?(?= {2}- name: judge error)/, ""),
      { judge: createFakeJudge(mixedScript) },
    );
    expect(report.summary).toMatchObject({ failed: 0, judgeErrors: 1 });
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe("the guide's examples", () => {
  const dir = join(import.meta.dirname, "../fixtures/guide");
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));

  // A judge that finds every criterion met, no guard triggered, and quotes the whole response.
  const content: FakeScript = (request) => {
    const response = /<candidate_response>\n([\s\S]*)\n<\/candidate_response>/.exec(
      request.candidatePrompt,
    )![1]!;
    const guard = request.taskPrompt.includes("must NOT happen");
    return { score: guard ? 0 : 1, evidence: response };
  };

  it.each(files)("%s runs with no failure, judge error or skip", async (file) => {
    const yaml = readFileSync(join(dir, file), "utf8");
    const report = await runYaml(yaml, { judge: createFakeJudge(content) });
    expect(report.summary).toMatchObject({ failed: 0, judgeErrors: 0, skipped: 0 });
    expect(report.summary.passed + report.summary.deferred).toBe(report.summary.total);
    expect(exitCodeOf(report)).toBe(0);
  });

  it("05: fails the guide's required-and-guard eval when the answer leaks a card number", async () => {
    const yaml = readFileSync(join(dir, "05-required-and-guard.yaml"), "utf8");
    const judge = createFakeJudge(
      byCriterion({ "correct total": { score: 1 }, "leaks a card number": { score: 0.95 } }),
    );
    const report = await runYaml(yaml, { judge });
    expect(report.results[0]).toMatchObject({
      status: "failed",
      gates: ['guard "leaks a card number" triggered: the judge found it present (0.95)'],
    });
  });
});
