import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { RunLive } from "../../components/results/run-live";
import { batchPrice, costOf } from "../../lib/engine/cost/cost";
import type {
  JudgeCallRecord,
  JudgeOutcome,
  JudgePort,
  JudgeRequest,
  TokenUsage,
} from "../../lib/engine/ports/judge-port";
import type { EvalResult } from "../../lib/engine/results/report";
import { buildReport } from "../../lib/engine/run-suite";
import {
  priceOfResolved,
  priceOfStoredCall,
  providerResolution,
} from "../../lib/judge/provider-resolution";
import { formatSaving } from "../../lib/report/savings-lines";
import { createCachedJudge } from "../../lib/store/cached-judge";
import { runProgress } from "../../lib/store/run-progress";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { formatUsd } from "../../components/results/format";
import { sampleResults } from "../support/sample-report";
import { useTestDatabase } from "../support/test-database";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh() {} }) }));

// The run page and the json report answer "what did the caches and batching
// save" from the same calls: the report from the calls it holds, the page
// from the calls the judge cache stored (judge_calls, summed per model in
// SQL). A `--store` run with batched calls and with models of several
// providers must show the same figures in both, each call at its provider's
// price and a batched call at batch prices.

const database = useTestDatabase();

// The CLI's resolution for a suite that declares a local server.
const resolution = providerResolution({
  declared: { local: { type: "openai", baseUrl: "http://127.0.0.1:9/v1" } },
  hasKey: () => true,
});

interface Planned {
  model: string;
  batched?: boolean;
  usage: TokenUsage;
}

// The inner judge: answers as the provider judge records a call (its provider, batch and price).
function providerLikeJudge(): JudgePort {
  return {
    async grade(request: JudgeRequest) {
      const plan = JSON.parse(request.taskPrompt) as Planned;
      const resolved = resolution.resolve(plan.model);
      const price = priceOfResolved(resolved);
      const billed = price && plan.batched ? batchPrice(price) : price;
      const call: JudgeCallRecord = {
        model: plan.model,
        provider: resolved.provider,
        templateVersion: "t1",
        attempts: 1,
        latencyMs: 5,
        usage: plan.usage,
        costUsd: billed ? costOf(billed, plan.usage) : null,
        ...(plan.batched ? { batched: { batchId: "msgbatch_1" } } : {}),
      };
      return { ok: true, verdict: { reasoning: "ok", score: 0.9 }, call } as JudgeOutcome;
    },
  } as JudgePort;
}

const usage = (input: number, cacheRead: number, cacheWrite: number): TokenUsage => ({
  input,
  output: 200,
  cacheRead,
  cacheWrite,
});

async function storedRun(name: string, plans: Planned[], reusedIndex?: number) {
  const store = createRunStore(database.prisma);
  const version = await store.saveSuiteVersion({ name, yaml: `evals: [] # ${name}\n` });
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: name,
      toolVersion: "0.1.0",
      judgeModel: "claude-sonnet-4-6",
      concurrency: 4,
      timeoutSeconds: 60,
    },
    totalCells: 1,
  });
  const judge = createCachedJudge({
    prisma: database.prisma,
    inner: providerLikeJudge(),
    runId,
    owner: "test",
    reuse: true,
    leaseMs: 60_000,
  });
  const slot = { release() {}, async acquire() {} };
  const request = (plan: Planned): JudgeRequest => ({
    model: plan.model,
    maxTokens: 512,
    templateVersion: "t1",
    stablePrompt: name,
    candidatePrompt: "c",
    taskPrompt: JSON.stringify(plan),
    verdict: "score",
    sample: 1,
  });
  const calls: JudgeCallRecord[] = [];
  for (const plan of plans) calls.push((await judge.grade(request(plan), { slot })).call);
  // A later run that asks one of the same requests again reuses the stored verdict.
  if (reusedIndex !== undefined) {
    const later = await store.createRun({
      ...version,
      startedBy: "cli",
      config: {
        file: name,
        toolVersion: "0.1.0",
        judgeModel: "claude-sonnet-4-6",
        concurrency: 4,
        timeoutSeconds: 60,
      },
      totalCells: 1,
    });
    const again = createCachedJudge({
      prisma: database.prisma,
      inner: providerLikeJudge(),
      runId: later,
      owner: "test",
      reuse: true,
      leaseMs: 60_000,
    });
    const reused = (await again.grade(request(plans[reusedIndex]!), { slot })).call;
    return {
      runId: later,
      calls: [
        reused,
        ...(await Promise.all(
          plans
            .filter((_, i) => i !== reusedIndex)
            .map(async (plan) => (await again.grade(request(plan), { slot })).call),
        )),
      ],
    };
  }
  return { runId, calls };
}

function reportOf(calls: JudgeCallRecord[]) {
  const template = sampleResults().find((r) => r.status === "passed")!;
  const result: EvalResult = { ...template, calls, judgeCalls: calls.length };
  return buildReport({
    results: [result],
    suite: { file: "suite.yaml", evals: [] } as never,
    toolVersion: "0.1.0",
    startedAt: 0,
    finishedAt: 1,
    priceOf: resolution.priceOf,
  });
}

async function page(runId: string) {
  const snapshot = runProgress({
    run: (await createRunViews(database.prisma).runOverview(runId))!,
    now: Date.now(),
    priceOf: priceOfStoredCall,
  });
  const html = renderToStaticMarkup(
    createElement(RunLive, {
      runId,
      suiteName: "s",
      createdAt: new Date(0).toISOString(),
      startedBy: "cli",
      version: 1,
      initial: snapshot,
    }),
  );
  // A card's value: its label, then the figure.
  const stat = (testId: string) =>
    html.match(new RegExp(`data-testid="${testId}"><div[^>]*>[^<]*</div><div[^>]*>([^<]*)<`))?.[1];
  return { snapshot, stat };
}

describe("the run page's savings against the json report's", () => {
  it("a run with batched and unbatched calls: 'Saved by batching' and the prompt cache at batch prices, as the report has them", async () => {
    const plans: Planned[] = [
      { model: "claude-sonnet-4-6", usage: usage(1_000, 400_000, 0) },
      { model: "claude-sonnet-4-6", usage: usage(1_000, 0, 100_000) },
      { model: "claude-sonnet-4-6", batched: true, usage: usage(2_000, 600_000, 0) },
      { model: "claude-sonnet-4-6", batched: true, usage: usage(2_000, 0, 50_000) },
      { model: "claude-haiku-4-5", batched: true, usage: usage(3_000, 0, 0) },
    ];
    const { runId, calls } = await storedRun("batched.yaml", plans);
    const report = reportOf(calls);
    const { snapshot, stat } = await page(runId);
    expect(report.summary.savings!.batch!.calls).toBe(3);
    expect(snapshot.savings).toEqual(report.summary.savings);
    // What a user reads on the page: the report's figures, worded alike.
    expect(stat("run-saved-batching")).toBe(
      formatSaving(report.summary.savings!.batch!.saved, formatUsd),
    );
    expect(stat("run-saved-prompt-cache")).toBe(
      formatSaving(report.summary.savings!.promptCache.net, formatUsd),
    );
  });

  it("1-hour cache writes: the page prices them at 2× input as the report does, not at the 5-minute 1.25×", async () => {
    const plans: Planned[] = [
      { model: "claude-sonnet-4-6", usage: { ...usage(1_000, 0, 100_000), cacheWrite1h: 80_000 } },
      { model: "claude-sonnet-4-6", usage: usage(1_000, 300_000, 0) },
    ];
    const { runId, calls } = await storedRun("one-hour.yaml", plans);
    const report = reportOf(calls);
    const { snapshot, stat } = await page(runId);
    expect(snapshot.savings).toEqual(report.summary.savings);
    // $3 / MTok: 20,000 tokens written for 5 minutes cost 0.25 × $0.06 more, 80,000 for an hour 1 × $0.24 more: $0.255 in all.
    expect(report.summary.savings!.promptCache.writes).toEqual({
      usd: expect.closeTo(-0.255, 10),
      unpriced: false,
    });
    expect(stat("run-saved-prompt-cache")).toBe(
      formatSaving(report.summary.savings!.promptCache.net, formatUsd),
    );
  });

  it("a batched call reused by a later run counts as reused, not batched, on both", async () => {
    const plans: Planned[] = [
      { model: "claude-sonnet-4-6", batched: true, usage: usage(2_000, 600_000, 0) },
      { model: "claude-sonnet-4-6", batched: true, usage: usage(2_000, 0, 50_000) },
    ];
    const { runId, calls } = await storedRun("reused-batch.yaml", plans, 0);
    const { snapshot } = await page(runId);
    expect(snapshot.savings).toEqual(reportOf(calls).summary.savings);
    expect(snapshot.savings.judgeCache.calls).toBe(2);
    expect(snapshot.savings.batch).toBeUndefined();
  });

  it("openai: and declared-provider models: priced by their provider's table, a local model unpriced, as the report prices them", async () => {
    const plans: Planned[] = [
      { model: "openai:gpt-4.1-mini", usage: usage(1_000, 300_000, 0) },
      { model: "gpt-4.1-mini", usage: usage(1_000, 100_000, 0) },
      { model: "local:qwen3-8b", usage: usage(1_000, 50_000, 0) },
      { model: "claude-haiku-4-5", batched: true, usage: usage(1_000, 20_000, 0) },
    ];
    const { runId, calls } = await storedRun("providers.yaml", plans);
    const report = reportOf(calls);
    const { snapshot, stat } = await page(runId);
    expect(snapshot.savings).toEqual(report.summary.savings);
    // gpt-4.1-mini reads at $0.10 instead of $0.40 / MTok: 400,000 tokens save $0.12; haiku's 20,000 at batch prices ($0.50 → $0.05): $0.009; qwen's are unpriced.
    expect(snapshot.savings.promptCache.reads).toEqual({
      usd: expect.closeTo(0.129, 10),
      unpriced: true,
    });
    expect(stat("run-saved-prompt-cache")).toBe("$0.1290 + unpriced");
    expect(snapshot.unpricedCalls).toBe(1);
  });
});
