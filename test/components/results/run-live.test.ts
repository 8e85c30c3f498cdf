import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { RunLive, type RunSnapshot } from "../../../components/results/run-live";
import { savingsOf } from "../../../lib/engine/cost/savings";
import { priceOf } from "../../../lib/judge/pricing";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh() {} }) }));

// The run page's header and progress line, from one snapshot (a new user's
// walk of the dashboard): a cancel pending reads "cancelling…" with no ETA and
// Cancel disabled, also after a reload; reused verdicts are told apart from
// the calls made; the percentage beside the results is the results'.

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&");

function snapshot(extra: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    status: "running",
    finished: false,
    cancelRequested: false,
    done: 3,
    total: 16,
    vacuous: 0,
    counts: { passed: 3, failed: 0, deferred: 0, judge_error: 0, skipped: 0 },
    calls: { done: 144, planned: 144 },
    costUsd: 0,
    judgeCalls: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    apart: { judgeUsd: 0, generationUsd: 0, judgeTokens: 0, generationTokens: null },
    reusedCalls: 144,
    unpricedCalls: 0,
    savings: savingsOf({ models: [], priceOf }),
    elapsedSeconds: 30,
    ...extra,
  };
}

const render = (initial: RunSnapshot) =>
  renderToStaticMarkup(
    createElement(RunLive, {
      runId: "r1",
      suiteName: "support",
      createdAt: new Date(0).toISOString(),
      startedBy: "dashboard",
      version: 1,
      initial,
    }),
  );

describe("the run page's live header", () => {
  it("reloaded while a cancel is pending: 'cancelling…', no ETA, Cancel disabled, the note kept", () => {
    const html = render(
      snapshot({
        cancelRequested: true,
        done: 5000,
        total: 10000,
        calls: { done: 5000, planned: 10000 },
        reusedCalls: 0,
      }),
    );
    const summary = text(html.match(/data-testid="run-progress-summary">(.*?)<\/p>/)![1]!);
    expect(summary.startsWith("cancelling…")).toBe(true);
    expect(summary).not.toContain("ETA");
    expect(text(html)).toContain("Run of support cancelling…");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Cancel run/);
    expect(text(html)).toContain("Cancel requested");
  });

  it("a running run without a cancel keeps its ETA and an active Cancel", () => {
    // Half its calls done in 30 s: 30 s left (with every call done it would read "finishing…").
    const html = render(snapshot({ reusedCalls: 0, calls: { done: 72, planned: 144 } }));
    expect(text(html)).toContain("ETA 30 s");
    expect(html).not.toMatch(/<button[^>]*disabled/);
    expect(text(html)).not.toContain("cancelling");
  });

  it("says reused verdicts apart from calls made, and gives the results their own percentage", () => {
    const summary = text(
      render(snapshot()).match(/data-testid="run-progress-summary">(.*?)<\/p>/)![1]!,
    );
    // 3 of 16 results is 18%, not the calls' 100% (or 23%).
    expect(summary).toContain("3 of 16 results · 18%");
    expect(summary).toContain("144 of 144 judge calls done (0 made, 144 reused)");
  });

  // Worked by hand at claude-sonnet-4-5's $3 / MTok input: 1,000,000 tokens read save
  // 1M × $3 × 0.9 = $2.70; 200,000 written cost 200k × $3 × 0.25 = $0.15 more; net $2.55.
  // 4 reused verdicts whose calls cost $0.12 in all.
  const cached = {
    model: "claude-sonnet-4-5",
    usage: { input: 5000, output: 900, cacheRead: 1_000_000, cacheWrite: 200_000 },
    reusedCalls: 4,
    reusedUsd: 0.12,
    reusedUnpriced: 0,
  };
  const stat = (html: string, id: string) =>
    text(html.match(new RegExp(`data-testid="${id}">(.*?)</div></div>`))![1]!);

  it("says what the prompt cache saved (net, reads, writes) apart from what reused verdicts saved", () => {
    const html = render(
      snapshot({ costUsd: 1.5, savings: savingsOf({ models: [cached], priceOf }) }),
    );
    expect(stat(html, "run-saved-prompt-cache")).toBe(
      "Saved by the prompt cache$2.55reads $2.70 · writes -$0.1500",
    );
    expect(stat(html, "run-saved-verdicts")).toBe("Saved by reused verdicts$0.1200");
    expect(text(html)).not.toContain("Saved by the cache");
  });

  it("an unpriced model: tokens counted, cost and savings 'unpriced', never a dollar figure", () => {
    const local = { ...cached, model: "local:qwen3-8b", reusedUsd: 0, reusedUnpriced: 4 };
    const html = render(
      snapshot({
        unpricedCalls: 9,
        tokens: { input: 5000, output: 900, cacheRead: 1_000_000, cacheWrite: 200_000 },
        savings: savingsOf({ models: [local], priceOf }),
      }),
    );
    expect(stat(html, "run-cost")).toBe("Costunpriced");
    expect(stat(html, "run-tokens")).toBe("Tokens1,205,900");
    expect(stat(html, "run-saved-prompt-cache")).toBe(
      "Saved by the prompt cacheunpricedreads unpriced · writes unpriced",
    );
    expect(stat(html, "run-saved-verdicts")).toBe("Saved by reused verdictsunpriced");
    expect(text(html.match(/data-testid="run-progress-summary">(.*?)<\/p>/)![1]!)).toContain(
      "cost unpriced",
    );
  });
});
