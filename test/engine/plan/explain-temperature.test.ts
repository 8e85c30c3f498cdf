import { describe, expect, it } from "vitest";
import { explainYaml } from "../../support/run-yaml";

// `eval --explain` says what a generation call sends: a Claude agent (the
// Messages API, which refuses temperature) is sent none, so explain does not
// claim "temperature 0" for it; an OpenAI-compatible model is sent the eval's
// temperature, or 0.

const SUITE = [
  "evals:",
  "  - name: claude",
  '    prompt: "Why is the sky blue?"',
  '    rubric: "Plain."',
  "    agent: { model: claude-haiku-4-5, temperature: 0.7 }",
  "  - name: gpt",
  '    prompt: "Why is the sky blue?"',
  '    rubric: "Plain."',
  "    agent: { model: openai:gpt-4.1-mini }",
  "  - name: local",
  '    prompt: "Why is the sky blue?"',
  '    rubric: "Plain."',
  "    agent: { model: local:qwen3-8b, temperature: 0.2 }",
  "providers:",
  "  local: { type: openai, base_url: http://127.0.0.1:8080/v1 }",
].join("\n");

describe("eval --explain of a generated candidate's call", () => {
  it("names the temperature that is sent, and none for a model of the Messages API", () => {
    const agents = explainYaml(SUITE).cells.map((c) => [c.name, c.agent]);
    expect(agents).toEqual([
      [
        "claude",
        "claude-haiku-4-5, one generation call, up to 2048 output tokens, no temperature sent (the Messages API refuses it: the model samples at its default)",
      ],
      ["gpt", "openai:gpt-4.1-mini, one generation call, up to 2048 output tokens, temperature 0"],
      ["local", "local:qwen3-8b, one generation call, up to 2048 output tokens, temperature 0.2"],
    ]);
  });
});
