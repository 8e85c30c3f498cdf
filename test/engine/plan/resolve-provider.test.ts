import { describe, expect, test } from "vitest";
import { loadSuite } from "../../../lib/config/load-suite";
import { planSuite } from "../../../lib/engine/plan/plan-suite";
import { resolveProvider } from "../../../lib/engine/plan/resolve-provider";

// Which provider serves a model: the prefix, else the family, else the key that is set.

const keys = (...set: string[]) => ({ hasKey: (name: string) => set.includes(name) });
const LOCAL = { local: { type: "openai" as const, baseUrl: "http://127.0.0.1:8000/v1" } };

describe("resolveProvider", () => {
  test.each([
    ["claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6"],
    ["gpt-4.1-mini", "openai", "gpt-4.1-mini"],
    ["o4-mini", "openai", "o4-mini"],
    ["openai:gpt-4.1-mini", "openai", "gpt-4.1-mini"],
    ["anthropic:claude-haiku-4-5", "anthropic", "claude-haiku-4-5"],
    ["local:qwen3:8b", "local", "qwen3:8b"],
  ])("%s → %s %s", (model, provider, bare) => {
    const resolved = resolveProvider(model, {
      declared: LOCAL,
      ...keys("ANTHROPIC_API_KEY", "OPENAI_API_KEY"),
    });
    expect([resolved.provider, resolved.model, resolved.unavailable]).toEqual([
      provider,
      bare,
      undefined,
    ]);
  });

  test("a model of no known family goes to the built-in provider whose key is set", () => {
    expect(resolveProvider("mistral-large", keys("OPENAI_API_KEY")).provider).toBe("openai");
    expect(
      resolveProvider("mistral-large", keys("ANTHROPIC_API_KEY", "OPENAI_API_KEY")).provider,
    ).toBe("anthropic");
  });

  test("without its key a model is unavailable, saying which key; a declared provider without api_key_env needs none", () => {
    expect(resolveProvider("gpt-4.1", keys("ANTHROPIC_API_KEY")).unavailable).toBe(
      'no key for provider "openai": set OPENAI_API_KEY to grade gpt-4.1 for real',
    );
    expect(resolveProvider("claude-haiku-4-5", keys()).unavailable).toBe(
      "no judge key: set ANTHROPIC_API_KEY to grade for real",
    );
    expect(
      resolveProvider("local:qwen3-8b", { declared: LOCAL, ...keys() }).unavailable,
    ).toBeUndefined();
    const keyed = { local: { ...LOCAL.local, apiKeyEnv: "LOCAL_KEY" } };
    expect(resolveProvider("local:qwen3-8b", { declared: keyed, ...keys() }).unavailable).toMatch(
      /set LOCAL_KEY/,
    );
    expect(
      resolveProvider("local:qwen3-8b", { declared: keyed, ...keys("LOCAL_KEY") }).unavailable,
    ).toBeUndefined();
  });

  test("a declared provider is never priced as its vendor: it is marked declared", () => {
    expect(resolveProvider("local:gpt-4.1-mini", { declared: LOCAL, ...keys() }).declared).toBe(
      true,
    );
    expect(resolveProvider("openai:gpt-4.1-mini", keys("OPENAI_API_KEY")).declared).toBe(false);
  });
});

test("a prefix that is a name on Object.prototype is an unknown provider, not a crash", () => {
  const resolved = resolveProvider("constructor:x", keys("ANTHROPIC_API_KEY"));
  expect(resolved.unavailable).toBe('unknown provider "constructor"');
});

test("a caller that resolves no providers (the dashboard's Check anchors) defers another provider's model with the reason", () => {
  const loaded = loadSuite({
    file: "s.yaml",
    text: [
      "evals:",
      "  - name: a",
      '    response: "x"',
      '    rubric: "y"',
      "    judge: { panel: [claude-haiku-4-5, openai:gpt-4.1-mini] }",
      "  - name: b",
      '    response: "x"',
      '    rubric: "y"',
    ].join("\n"),
  });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const [mixed, plain] = planSuite({ suite: loaded.value, defaultModel: "claude-sonnet-4-6" });
  expect(mixed!.deferReason).toBe(
    'judge model openai:gpt-4.1-mini is served by provider "openai", which is not resolved here (runs resolve it: rubric-studio eval, review, calibrate, and queued or dashboard runs)',
  );
  expect(plain!.deferReason).toBeUndefined();
});
