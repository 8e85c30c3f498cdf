import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { BaselineTally } from "../../lib/engine/trust/compare-baseline";
import { needsPerson, splitQuestions } from "../../lib/engine/trust/people/needs-person";
import { ReportTotals } from "../../lib/engine/trust/report-totals";
import { createResultPipeline } from "../../lib/cli/result-pipeline";
import { createFakeJudge } from "../support/fake-judge";
import { REVIEW_QUEUE_SUITE, reviewQueueScript } from "../support/review-queue-suite";
import { runYaml } from "../support/run-yaml";

// A streamed run's results on their way to the reports: the review queue gets the questions a
// whole report would have given it, and a baseline is looked up a window of results at a time.

const key = (q: { resultKey: string; criterion: string; reason: string }) =>
  `${q.resultKey}|${q.criterion}|${q.reason}`;

describe("createResultPipeline", () => {
  it("gathers the review queue's questions of a whole report, a result at a time", async () => {
    const report = await runYaml(REVIEW_QUEUE_SUITE, {
      judge: createFakeJudge(reviewQueueScript()),
    });
    const totals = new ReportTotals(() => undefined);
    const sent: string[] = [];
    const pipeline = createResultPipeline({
      streams: { collects: false, result: (r) => void sent.push(r.id) },
      questions: true,
    });
    for (const result of report.results) pipeline.push(totals.add(result));
    await pipeline.drained();
    const gathered = [...pipeline.questions, ...splitQuestions([...totals.ratings])];
    const whole = needsPerson(report.results);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    expect(new Set(gathered.map(key))).toEqual(new Set(whole.map(key)));
    expect(sent).toEqual(report.results.map((r) => r.id));
    expect(pipeline.collected).toEqual([]);
  });

  it("compares 1,201 results with their baseline in three lookups, in order, keeping only notable deltas", async () => {
    const results = Array.from(
      { length: 1_201 },
      (_, i) =>
        ({ id: `r${i}`, name: `r${i}`, score: 0.5, status: "passed" }) as unknown as EvalResult,
    );
    const lookups: number[] = [];
    const tally = new BaselineTally({ runId: "base", maxDrop: 0.05, every: false });
    const sent: EvalResult[] = [];
    const pipeline = createResultPipeline({
      streams: { collects: false, result: (r) => void sent.push(r) },
      baseline: {
        tally,
        previous: true,
        lookup: async (ids) => {
          lookups.push(ids.length);
          // r7 dropped from 0.9; r9 is not in the baseline; the rest scored the same.
          return new Map(
            ids
              .filter((id) => id !== "r9")
              .map((id) => [id, { score: id === "r7" ? 0.9 : 0.5, status: "passed" as const }]),
          );
        },
      },
      questions: false,
    });
    for (const result of results) pipeline.push(result);
    await pipeline.drained();
    expect(lookups).toEqual([500, 500, 201]);
    expect(sent.map((r) => r.id)).toEqual(results.map((r) => r.id));
    expect(sent[7]!.previous).toEqual({ score: 0.9, status: "passed" });
    expect(sent[9]!.previous).toBeUndefined();
    const comparison = tally.comparison();
    expect(comparison).toMatchObject({ regressions: 1, unmatched: 1, newlyFailing: 0 });
    expect(comparison.deltas.map((d) => d.id)).toEqual(["r7"]);
  });

  it("a failed lookup fails the run when it is drained", async () => {
    const pipeline = createResultPipeline({
      streams: { collects: false, result: () => undefined },
      baseline: {
        tally: new BaselineTally({ runId: "base", maxDrop: 0.05, every: true }),
        previous: false,
        lookup: async () => {
          throw new Error("the database went away");
        },
      },
      questions: false,
    });
    pipeline.push({ id: "a", name: "a", score: 1, status: "passed" } as unknown as EvalResult);
    await expect(pipeline.drained()).rejects.toThrow("the database went away");
  });
});
