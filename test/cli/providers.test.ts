import { describe, expect, test } from "vitest";
import { startFakeOpenAIApi, type FakeOpenAIApiOptions } from "../support/fake-openai-api";
import { makeWorkspace, startFakeJudge, yaml, type OnFinished } from "./cli-harness";

// Judges on OpenAI-compatible endpoints (issue 11), through the real CLI, the
// real openai SDK and the real Anthropic SDK against stand-ins on 127.0.0.1.

async function startOpenAI(onFinished: OnFinished, options: FakeOpenAIApiOptions = {}) {
  const api = await startFakeOpenAIApi(options);
  onFinished(() => api.close());
  return api;
}

/** A suite with one eval judged by `judge` (a YAML flow map), and a local provider at `localUrl`. */
function suite(input: { judge: string; localUrl: string; threshold?: number }): string {
  return yaml(
    "providers:",
    `  local: { type: openai, base_url: "${input.localUrl}" }`,
    "evals:",
    "  - name: refund answer",
    '    response: "Refunds take 5 days."',
    '    rubric: "States how long a refund takes."',
    `    threshold: ${input.threshold ?? 0.5}`,
    `    judge: ${input.judge}`,
  );
}

describe.concurrent("providers", () => {
  test("a panel of one Anthropic and two OpenAI-compatible models: the right panel verdict, and each judge's provider recorded", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const anthropic = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "says 5 days", score: 0.9 } }),
    });
    const openai = await startOpenAI(onTestFinished, {
      respond: () => ({
        verdict: { reasoning: "vague", score: 0.2 },
        usage: { prompt_tokens: 2000, cached_tokens: 1500, completion_tokens: 100 },
      }),
    });
    const local = await startOpenAI(onTestFinished, {
      plainOnly: true,
      respond: () => ({ verdict: { reasoning: "fine", score: 0.7 } }),
    });
    await ws.write(
      "suite.yaml",
      suite({
        judge: "{ panel: [claude-haiku-4-5, openai:gpt-4.1-mini, local:qwen3-8b] }",
        localUrl: local.url,
      }),
    );

    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "pretty,json,md,junit", "--output", "out"],
      {
        ...anthropic.env,
        OPENAI_API_KEY: "sk-openai-test",
        OPENAI_BASE_URL: openai.url,
      },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const result = (await ws.readReport("out/report.json")).results[0]!;
    // The mean of 0.9, 0.2 and 0.7 against the threshold 0.5.
    expect(result.status).toBe("passed");
    expect(result.score).toBeCloseTo(0.6, 5);
    expect(result.judge.providers).toEqual({
      "claude-haiku-4-5": "anthropic",
      "openai:gpt-4.1-mini": "openai",
      "local:qwen3-8b": "local",
    });
    expect(result.judges.map((j) => [j.model, j.provider, j.score])).toEqual([
      ["claude-haiku-4-5", "anthropic", 0.9],
      ["openai:gpt-4.1-mini", "openai", 0.2],
      ["local:qwen3-8b", "local", 0.7],
    ]);
    // Each provider got the model without its prefix, asked in the way it supports.
    expect(openai.requests.map((r) => [r.model, r.mode])).toEqual([["gpt-4.1-mini", "tools"]]);
    expect(openai.requests[0]!.headers.authorization).toBe("Bearer sk-openai-test");
    expect(local.requests.map((r) => [r.model, r.mode])).toEqual([
      ["qwen3-8b", "tools"],
      ["qwen3-8b", "json_schema"],
      ["qwen3-8b", "json"],
    ]);
    expect(anthropic.api.requests).toHaveLength(1);
    const byProvider = Object.fromEntries(result.calls.map((c) => [c.provider, c]));
    // Cached tokens are counted apart; OpenAI's price table prices them (0.4 in, 0.1 cached, 1.6 out per MTok).
    expect(byProvider.openai!.usage).toEqual({
      input: 500,
      cacheRead: 1500,
      cacheWrite: 0,
      output: 100,
    });
    expect(byProvider.openai!.costUsd).toBeCloseTo((500 * 0.4 + 1500 * 0.1 + 100 * 1.6) / 1e6, 12);
    // A local model has no price: its tokens, and no dollar figure.
    expect(byProvider.local!.costUsd).toBeNull();
    expect(byProvider.local!.usage.input).toBe(1200);
    // The reports say where each judge ran, and that part of the cost is unknown.
    expect(run.stdout).toMatch(/PASS +refund answer .*\$0\.\d+ \+ unpriced/);
    expect(await ws.read("out/report.md")).toMatch(
      /\| refund answer \| 0\.60 \| 0\.50 \| \$0\.\d+ \+ unpriced \|/,
    );
    expect(await ws.read("out/report.xml")).toMatch(
      /name="judge_providers" value="anthropic,openai,local"/,
    );
  });

  test("an unpriced model with --max-cost refuses to start (exit 2), unless --allow-unpriced", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const local = await startOpenAI(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "fine", score: 0.9 } }),
    });
    await ws.write(
      "suite.yaml",
      suite({ judge: "{ model: local:qwen3-8b }", localUrl: local.url }),
    );

    const refused = await ws.cli(["eval", "--config", "suite.yaml", "--max-cost", "1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--max-cost cannot bound the spend of local:qwen3-8b: no known price.*--allow-unpriced/,
    );
    expect(local.requests).toHaveLength(0);

    const allowed = await ws.cli([
      "eval",
      "--config",
      "suite.yaml",
      "--max-cost",
      "1",
      "--allow-unpriced",
    ]);
    expect(allowed.code).toBe(0);
    expect(local.requests).toHaveLength(1);
  });

  test("an unknown provider and a malformed base_url are load-time errors at their line and column", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "providers:",
        '  local: { type: openai, base_url: "127.0.0.1:8000/v1" }',
        "evals:",
        "  - name: a",
        '    response: "x"',
        '    rubric: "y"',
        "    judge: { panel: [claude-haiku-4-5, locla:qwen3-8b] }",
      ),
    );
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/suite\.yaml:2:\d+.*base_url must be an absolute http/);
    expect(run.stderr).toMatch(
      /suite\.yaml:7:\d+.*unknown provider "locla" in model "locla:qwen3-8b" \(did you mean "local"\?\)/,
    );
  });

  test("eval --explain shows the provider each model resolves to, and which key a real run lacks", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      suite({
        judge: "{ panel: [claude-sonnet-4-6, gpt-4.1-mini, local:qwen3-8b] }",
        localUrl: "http://127.0.0.1:9/v1",
      }),
    );
    const run = await ws.cli(["eval", "--config", "suite.yaml", "--explain"], {
      ANTHROPIC_API_KEY: "sk-ant-test",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /judge: claude-sonnet-4-6 \(anthropic\), gpt-4\.1-mini \(openai\), local:qwen3-8b \(local\)/,
    );
    expect(run.stdout).toMatch(
      /A real run would defer 1 cell \(3 judge calls of the plan above\): no key for provider "openai": set OPENAI_API_KEY/,
    );
    // The plan counts that cell as if graded; the run's own Grading line will not: said, not left to contradict.
    expect(run.stdout).toContain("So a real run with these keys makes 0 judge calls");
  });

  test("a model whose provider has no key defers with that reason", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      suite({ judge: "{ model: openai:gpt-4.1-mini }", localUrl: "http://127.0.0.1:9/v1" }),
    );
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "json", "--output", "report.json"],
      { ANTHROPIC_API_KEY: "sk-ant-test" },
    );
    expect(run.code).toBe(0);
    const result = (await ws.readReport("report.json")).results[0]!;
    expect(result.status).toBe("deferred");
    expect(result.note).toMatch(/no key for provider "openai": set OPENAI_API_KEY/);
  });
});

test("a matrix whose models axis mixes vendors grades each cell with its own provider", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const anthropic = await startFakeJudge(onTestFinished, {
    respond: () => ({ verdict: { reasoning: "good", score: 0.9 } }),
  });
  const local = await startOpenAI(onTestFinished, {
    respond: () => ({ verdict: { reasoning: "weak", score: 0.1 } }),
  });
  await ws.write(
    "suite.yaml",
    yaml(
      "providers:",
      `  local: { type: openai, base_url: "${local.url}" }`,
      "evals:",
      "  - name: refund answer",
      '    response: "Refunds take 5 days."',
      '    rubric: "States how long a refund takes."',
      "    matrix: { models: [claude-haiku-4-5, local:qwen3-8b] }",
    ),
  );
  const run = await ws.cli(
    ["eval", "--config", "suite.yaml", "--reporter", "json", "--output", "report.json"],
    anthropic.env,
  );
  expect(run.code).toBe(1);
  const results = (await ws.readReport("report.json")).results;
  expect(results.map((r) => [r.name, r.status, r.judge.providers])).toEqual([
    ["refund answer [model=claude-haiku-4-5]", "passed", { "claude-haiku-4-5": "anthropic" }],
    ["refund answer [model=local:qwen3-8b]", "failed", { "local:qwen3-8b": "local" }],
  ]);
  expect(local.requests.map((r) => r.model)).toEqual(["qwen3-8b"]);
});

test("calibrate and eval --repeat refuse --max-cost for an unpriced judge model too, unless --allow-unpriced", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const local = await startOpenAI(onTestFinished, {
    respond: () => ({ verdict: { reasoning: "fine", score: 0.9 } }),
  });
  await ws.write(
    "suite.yaml",
    yaml(
      "providers:",
      `  local: { type: openai, base_url: "${local.url}" }`,
      "judge: { model: local:qwen3-8b }",
      "evals:",
      "  - name: answers",
      '    response: "Use the reset link."',
      "    rubric:",
      "      criteria:",
      "        - name: actionable",
      '          description: "Tells the user what to do."',
      "          examples:",
      '            - { response: "Click Forgot password.", score: 1.0 }',
    ),
  );
  for (const args of [["calibrate"], ["eval", "--repeat", "2"]]) {
    const refused = await ws.cli([...args, "--config", "suite.yaml", "--max-cost", "1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--max-cost cannot bound the spend of local:qwen3-8b/);
  }
  expect(local.requests).toHaveLength(0);
  const allowed = await ws.cli([
    "calibrate",
    "--config",
    "suite.yaml",
    "--max-cost",
    "1",
    "--allow-unpriced",
  ]);
  expect(allowed.stderr).not.toMatch(/cannot bound/);
  expect(local.requests.length).toBeGreaterThan(0);
});

test("a category review by a mixed panel records each judge's model_provider in its metadata", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const verdict = {
    reasoning: "looked at",
    score: "pass",
    evidence: ["Target: p95 under 2s."],
    findings: [],
  };
  const anthropic = await startFakeJudge(onTestFinished, {
    respond: () => ({ toolInput: verdict }),
  });
  const local = await startOpenAI(onTestFinished, { respond: () => ({ verdict }) });
  await ws.write(
    "reviews.yaml",
    yaml(
      "providers:",
      `  local: { type: openai, base_url: "${local.url}" }`,
      "evals:",
      "  - name: checkout prd",
      '    document: { text: "Target: p95 under 2s.", id: PRD-1, title: Checkout }',
      "    rubric:",
      "      categories:",
      "        - { id: metrics, name: Metrics, description: Defines success metrics. }",
      "    judge: { panel: [claude-haiku-4-5, local:qwen3-8b] }",
    ),
  );
  const run = await ws.cli(
    ["review", "--config", "reviews.yaml", "--multi-judge", "--output", "out/review.json"],
    anthropic.env,
  );
  expect(run.code).toBe(0);
  const multi = JSON.parse(await ws.read("out/review.json")) as {
    judges: { model: string; model_provider: string }[];
  };
  expect(multi.judges.map((j) => [j.model, j.model_provider])).toEqual([
    ["claude-haiku-4-5", "anthropic"],
    ["local:qwen3-8b", "local"],
  ]);
});
