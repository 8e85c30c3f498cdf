import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { RunLive, type RunSnapshot } from "../../../components/results/run-live";

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
    reusedCalls: 144,
    savedUsd: 0.5,
    elapsedSeconds: 30,
    ...extra,
  };
}

const render = (initial: RunSnapshot) => renderToStaticMarkup(createElement(RunLive, { runId: "r1", suiteName: "support", createdAt: new Date(0).toISOString(), startedBy: "dashboard", version: 1, initial }));

describe("the run page's live header", () => {
  it("reloaded while a cancel is pending: 'cancelling…', no ETA, Cancel disabled, the note kept", () => {
    const html = render(snapshot({ cancelRequested: true, done: 5000, total: 10000, calls: { done: 5000, planned: 10000 }, reusedCalls: 0 }));
    const summary = text(html.match(/data-testid="run-progress-summary">(.*?)<\/p>/)![1]!);
    expect(summary.startsWith("cancelling…")).toBe(true);
    expect(summary).not.toContain("ETA");
    expect(text(html)).toContain("Run of support cancelling…");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Cancel run/);
    expect(text(html)).toContain("Cancel requested");
  });

  it("a running run without a cancel keeps its ETA and an active Cancel", () => {
    const html = render(snapshot({ reusedCalls: 0 }));
    expect(text(html)).toContain("ETA");
    expect(html).not.toMatch(/<button[^>]*disabled/);
    expect(text(html)).not.toContain("cancelling");
  });

  it("says reused verdicts apart from calls made, and gives the results their own percentage", () => {
    const summary = text(render(snapshot()).match(/data-testid="run-progress-summary">(.*?)<\/p>/)![1]!);
    // 3 of 16 results is 18%, not the calls' 100% (or 23%).
    expect(summary).toContain("3 of 16 results · 18%");
    expect(summary).toContain("144 of 144 judge calls done (144 reused)");
  });
});
