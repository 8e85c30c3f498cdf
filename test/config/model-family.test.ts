import { describe, expect, test } from "vitest";
import { modelFamilyOf } from "../../lib/config/model-family";
import { resolveProvider } from "../../lib/engine/plan/resolve-provider";

// One table of model families (issue 11): the same-family warning and the
// provider resolution of an unprefixed model read it.

describe("modelFamilyOf", () => {
  test.each([
    ["claude-haiku-4-5", "claude"],
    ["anthropic:claude-sonnet-4-6", "claude"],
    ["openai:gpt-4.1-mini", "gpt"],
    ["o4-mini", "gpt"],
    ["local:gpt-oss-20b", "gpt"],
    ["local:qwen3-8b", "qwen"],
    ["local:qwen3:8b", "qwen"],
    ["local:Qwen/Qwen3-8B", "qwen"],
    ["local:meta-llama/Llama-3.1-8B-Instruct", "llama"],
    ["local:mixtral-8x7b", "mistral"],
    ["local:gemma-3-12b", "gemini"],
    ["local:deepseek-r1", "deepseek"],
  ])("%s is of the %s family", (model, family) => {
    expect(modelFamilyOf(model)?.id).toBe(family);
  });

  test("a name that says no family has none, and is never called a Claude or a GPT", () => {
    expect(modelFamilyOf("local:my-finetune")).toBeUndefined();
    expect(modelFamilyOf("local:phi-4")).toBeUndefined();
  });

  test("resolution reads the same table: a family with a vendor picks the provider of an unprefixed model", () => {
    const none = { hasKey: () => false };
    expect(resolveProvider("gpt-4.1-mini", none).provider).toBe("openai");
    expect(
      resolveProvider("claude-haiku-4-5", { hasKey: (k) => k === "OPENAI_API_KEY" }).provider,
    ).toBe("anthropic");
    // A family without a vendor API (Qwen) falls back to the key that is set.
    expect(resolveProvider("qwen3-8b", { hasKey: (k) => k === "OPENAI_API_KEY" }).provider).toBe(
      "openai",
    );
  });
});
