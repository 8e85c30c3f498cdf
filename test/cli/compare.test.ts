import { describe, expect, test } from "vitest";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A pairwise eval through the real CLI and SDK against the Messages API
// stand-in, which, like a position-biased judge, always prefers the response
// shown first: the report must flag every pair, whatever order it came in.

const SUITE = yaml(
  "evals:",
  "  - name: release notes v1 vs v2",
  '    rubric: "Which release note is more accurate and easier to act on?"',
  "    compare:",
  "      labels: { a: v1, b: v2 }",
  "      items:",
  '        - { input: "Write the 2.3 release note.", output_a: "2.3 adds rate limits.", output_b: "2.3 adds per-tenant rate limits (default 100 rps)." }',
  '        - { input: "Write the 2.4 release note.", output_a: "2.4 fixes bugs.", output_b: "2.4 fixes the invoice rounding bug (#812)." }',
  '        - { input: "Write the 2.5 release note.", output_a: "2.5 is faster.", output_b: "2.5 halves p95 latency of /search." }',
);

describe.concurrent("rubric-studio eval with compare:", () => {
  test("a judge that favours position A: both orders asked, every pair flagged position-biased, the bias in md and json", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        toolInput: { reasoning: "The first one reads better.", winner: "A", confidence: 0.9 },
      }),
    });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "json,md", "--output", "out"],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(0);
    // 3 pairs x 2 orders, each with the pairwise verdict tool.
    expect(judge.api.requests).toHaveLength(6);
    expect(judge.api.requests.every((r) => r.toolName === "record_verdict")).toBe(true);
    const firsts = judge.api.requests.map((r) => /<response_a>\n(.*)\n/.exec(r.user)?.[1]);
    // Each of the six outputs is shown first exactly once.
    expect(new Set(firsts).size).toBe(6);

    const report = await ws.readReport("out/report.json");
    const pairwise = report.results[0]!.pairwise!;
    expect(pairwise.positionBias).toEqual({
      rate: 1,
      biased: 3,
      comparable: 3,
      favoredFirst: 3,
      favoredSecond: 0,
    });
    expect(pairwise.result.overall_winner).toBe("tie");
    expect(pairwise.result.comparisons.every((c) => c.metadata?.position_biased === true)).toBe(
      true,
    );
    // Each comparison carries its judge's metadata (the Go PairwiseComparison's judge), from both orders' calls.
    const meta = pairwise.result.comparisons[0]!.judge!;
    expect(meta).toMatchObject({ model: "claude-sonnet-4-6", model_version: "claude-sonnet-4-6" });
    expect(meta.system_prompt).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(meta.tokens_used?.output_tokens).toBeGreaterThan(0);
    const md = await ws.read("out/report.md");
    expect(md).toContain("position-biased");
    expect(md).toMatch(/3 of 3 pairs/);
  });
});
