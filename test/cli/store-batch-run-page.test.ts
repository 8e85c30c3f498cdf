import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { priceOfStoredCall } from "../../lib/judge/provider-resolution";
import { runProgress } from "../../lib/store/run-progress";
import { createRunViews } from "../../lib/store/run-views";
import { startFakeOpenAIApi } from "../support/fake-openai-api";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// The whole path of a user's `eval --store --batch` with models of three
// providers, through the real CLI and SDKs against the stand-ins: the run
// page's figures (read back from the store as the dashboard reads them) are
// the json report's, batched Anthropic calls at batch prices, the openai:
// model at OpenAI's prices, the declared local model unpriced.

const database = useTestDatabase();
// The same dollars, summed in another order (per model in SQL, per call in the report): equal to 12 places.
const rounded = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === "number" ? Number(v.toFixed(12)) : v,
    ),
  );
const GUIDANCE =
  "Judge only what the answer states, citing the release notes where they apply. ".repeat(75);

describe("eval --store --batch, on the run page", () => {
  it(
    "shows what the caches and batching saved exactly as the json report does",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "yes", score: 0.9 } }),
      });
      const openai = await startFakeOpenAIApi({
        respond: () => ({
          verdict: { reasoning: "yes", score: 0.8 },
          usage: { prompt_tokens: 3000, cached_tokens: 2000 },
        }),
      });
      onTestFinished(() => openai.close());
      await ws.write(
        "mixed.yaml",
        yaml(
          "providers:",
          `  local: { type: openai, base_url: "${openai.url}" }`,
          "evals:",
          "  - name: release notes",
          '    response: "The 2.3.0 release added per-tenant rate limits."',
          "    judge: { model: claude-sonnet-4-5 }",
          "    rubric:",
          "      criteria:",
          `        - { name: accurate, description: "States the change. ${GUIDANCE}" }`,
          "        - { name: names version, description: Names the version. }",
          "        - { name: brief, description: No filler. }",
          "  - name: on openai",
          '    response: "Refunds take 5 days."',
          "    judge: { model: openai:gpt-4.1-mini }",
          '    rubric: "States how long a refund takes."',
          "  - name: on a local server",
          '    response: "Refunds take 5 days."',
          "    judge: { model: local:qwen3-8b }",
          '    rubric: "States how long a refund takes."',
        ),
      );
      const env = {
        ...judge.env,
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: openai.url,
        DATABASE_URL: database.url,
      };
      const run = await ws.cli(
        [
          "eval",
          "--config",
          "mixed.yaml",
          "--store",
          "--batch",
          "--poll-interval",
          "0.05",
          "--reporter",
          "json",
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;
      const page = runProgress({
        run: (await createRunViews(database.prisma).runOverview(runId))!,
        now: Date.now(),
        priceOf: priceOfStoredCall,
      });

      expect(report.summary.savings!.batch!.calls).toBe(3);
      expect(report.summary.savings!.promptCache.reads.unpriced).toBe(true);
      expect(rounded(page.savings)).toEqual(rounded(report.summary.savings));
      expect(page.costUsd).toBeCloseTo(report.summary.costUsd, 12);
      expect(page.unpricedCalls).toBe(1);
    },
  );
});
