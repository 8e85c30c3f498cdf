import { describe, expect, test } from "vitest";
import {
  startFakeOpenAIApi,
  type FakeOpenAIApiOptions,
  type FakeOpenAIReply,
} from "../support/fake-openai-api";
import { makeWorkspace, yaml, type OnFinished } from "./cli-harness";

// An OpenAI-compatible judge that misbehaves, through the real CLI and the real
// openai SDK: the same retry policy and repair-once rule as the Anthropic judge.

const GOOD: FakeOpenAIReply = { verdict: { reasoning: "states 5 days", score: 0.9 } };

async function run(onFinished: OnFinished, options: FakeOpenAIApiOptions & { model?: string }) {
  const ws = await makeWorkspace(onFinished);
  const api = await startFakeOpenAIApi(options);
  onFinished(() => api.close());
  await ws.write(
    "suite.yaml",
    yaml(
      "providers:",
      `  local: { type: openai, base_url: "${api.url}", api_key_env: LOCAL_KEY }`,
      "evals:",
      "  - name: refund answer",
      '    response: "Refunds take 5 days."',
      '    rubric: "States how long a refund takes."',
      "    threshold: 0.6",
      `    judge: { model: ${options.model ?? "local:qwen3-8b"} }`,
    ),
  );
  const cli = await ws.cli(
    ["eval", "--config", "suite.yaml", "--reporter", "pretty,json", "--output", "report.json"],
    { LOCAL_KEY: "local-secret" },
  );
  const result = (await ws.readReport("report.json")).results[0]!;
  return { cli, result, requests: api.requests };
}

describe.concurrent("OpenAI-compatible judge failures through the real SDK", () => {
  test("429 with retry-after: 1, then success: retried about a second later, and the eval passes", async ({
    onTestFinished,
  }) => {
    const { cli, result, requests } = await run(onTestFinished, {
      respond: (r) => (r.index === 0 ? { status: 429, headers: { "retry-after": "1" } } : GOOD),
    });
    expect(cli.code).toBe(0);
    expect(result.status).toBe("passed");
    expect(result.score).toBe(0.9);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers.authorization).toBe("Bearer local-secret");
    const waited = requests[1]!.receivedAt - requests[0]!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(2500);
    expect(result.calls[0]!.attempts).toBe(2);
  });

  test("a 500, then success: retried with backoff, and the eval passes", async ({
    onTestFinished,
  }) => {
    const { cli, result, requests } = await run(onTestFinished, {
      respond: (r) => (r.index === 0 ? { status: 500 } : GOOD),
    });
    expect(cli.code).toBe(0);
    expect(result.status).toBe("passed");
    expect(requests).toHaveLength(2);
  });

  test("a malformed tool call is repaired once: the error goes back as a tool result, and the repaired verdict counts", async ({
    onTestFinished,
  }) => {
    const { cli, result, requests } = await run(onTestFinished, {
      respond: (r) => (r.index === 0 ? { toolArguments: '{"reasoning": "ok", "score": 7}' } : GOOD),
    });
    expect(cli.code).toBe(0);
    expect(result.status).toBe("passed");
    expect(requests).toHaveLength(2);
    const repair = requests[1]!.body.messages as { role: string; content: string }[];
    expect(repair.at(-1)!.role).toBe("tool");
    expect(repair.at(-1)!.content).toMatch(/does not match the verdict schema[\s\S]*score/);
  });

  test("a server with neither tools nor response formats is asked for JSON, which is parsed strictly", async ({
    onTestFinished,
  }) => {
    // Prose around the JSON is not a verdict: it is repaired, not guessed at.
    const { cli, result, requests } = await run(onTestFinished, {
      plainOnly: true,
      respond: (r) =>
        r.mode !== "json"
          ? GOOD
          : r.index === 2
            ? { content: 'Sure! {"reasoning": "x", "score": 0.9}' }
            : { content: '{"reasoning": "states 5 days", "score": 0.8}' },
    });
    expect(cli.code).toBe(0);
    expect(requests.map((r) => r.mode)).toEqual(["tools", "json_schema", "json", "json"]);
    expect(requests[2]!.system).toMatch(/Reply with only one JSON object/);
    expect(requests[3]!.last).toMatch(/not valid JSON/);
    expect(result.status).toBe("passed");
    expect(result.score).toBe(0.8);
  });

  test("a reply that never parses is judge_error (exit 1), never a pass or a fail", async ({
    onTestFinished,
  }) => {
    const { cli, result, requests } = await run(onTestFinished, {
      respond: () => ({ content: "I think it is fine." }),
    });
    expect(cli.code).toBe(1);
    expect(result.status).toBe("judge_error");
    expect(result.score).toBeNull();
    expect(requests).toHaveLength(2);
    expect(cli.stdout).toMatch(/1 judge error/);
    expect(JSON.stringify(result)).toMatch(
      /no valid verdict after one repair attempt: The reply did not call the record_verdict tool/,
    );
  });
});
