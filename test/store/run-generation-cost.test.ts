import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { RunLive } from "../../components/results/run-live";
import { priceOfStoredCall } from "../../lib/judge/provider-resolution";
import { runProgress } from "../../lib/store/run-progress";
import { createRunViews } from "../../lib/store/run-views";
import { runGenerated } from "../support/generated-run";
import { useTestDatabase } from "../support/test-database";
import { yaml } from "../cli/cli-harness";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh() {} }) }));

// The run page of a run whose candidates a model generated: its Cost and
// Tokens cards give the judges' and the generation's parts, which add up to
// the totals, and agree with the CLI's summary of the same run.

const db = useTestDatabase();

const SUITE = yaml(
  "judge: { model: claude-sonnet-4-6 }",
  "evals:",
  "  - name: explains",
  '    rubric: "Explains it plainly."',
  "    agent: { model: claude-haiku-4-5 }",
  "    matrix:",
  '      prompts: ["Why is the sky blue?", "Why do we have leap years?"]',
);

interface Json {
  runId: string;
  summary: {
    costUsd: number;
    judgeCalls: number;
    generation: { calls: number; costUsd: number; usage: Record<string, number> };
  };
}

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the run page of generated candidates", () => {
  it("gives the judges' and the generation's cost and tokens apart, adding up", async ({
    onTestFinished,
  }) => {
    const { cli: run } = await runGenerated({
      onTestFinished,
      suite: SUITE,
      args: ["--store", "--reporter", "json"],
      generated: "Because of how light scatters.",
      reasoning: "Plain.",
      env: { DATABASE_URL: db.url },
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Json;
    const overview = await createRunViews(db.prisma).runOverview(report.runId);
    const shown = runProgress({ run: overview!, now: Date.now(), priceOf: priceOfStoredCall });
    const g = report.summary.generation;
    const generationTokens =
      g.usage.input! + g.usage.output! + g.usage.cacheRead! + g.usage.cacheWrite!;
    expect(shown.apart.generationUsd).toBeCloseTo(g.costUsd, 10);
    expect(shown.apart.judgeUsd + shown.apart.generationUsd).toBeCloseTo(shown.costUsd, 10);
    expect(shown.apart.generationTokens).toBe(generationTokens);
    const t = shown.tokens;
    expect(shown.apart.judgeTokens + generationTokens).toBe(
      t.input + t.output + t.cacheRead + t.cacheWrite,
    );

    const html = text(
      renderToStaticMarkup(
        createElement(RunLive, {
          runId: report.runId,
          suiteName: "suite.yaml",
          createdAt: new Date(0).toISOString(),
          startedBy: "cli",
          version: 1,
          initial: shown,
        }),
      ),
    );
    expect(html).toMatch(/Cost \$[\d.]+ judges \$[\d.]+ \+ generation \$[\d.]+/);
    // The generation's calls beside the judge calls, in the CLI summary's words.
    expect(report.summary.generation.calls).toBe(2);
    expect(html).toContain(`Judge calls ${report.summary.judgeCalls} generation: 2 calls`);
    expect(html).toMatch(/Tokens [\d,]+ judges [\d,]+ \+ generation [\d,]+/);
  });
});
