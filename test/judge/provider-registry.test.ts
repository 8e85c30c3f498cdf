import { describe, expect, test } from "vitest";
import { PROVIDER_TYPES } from "../../lib/config/provider-schema";
import type { JudgeRequest } from "../../lib/engine/ports/judge-port";
import { PROVIDER_ADAPTERS } from "../../lib/judge/provider-registry";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { startFakeOpenAIApi } from "../support/fake-openai-api";

// House rule 5: every provider type the YAML language offers has an adapter in
// the registry, and each one grades through its real SDK against its stand-in.

const REQUEST: JudgeRequest = {
  model: "m",
  maxTokens: 256,
  templateVersion: "t",
  stablePrompt: "Grade the candidate.",
  candidatePrompt: "<candidate_response>\nhi\n</candidate_response>",
  taskPrompt: "Grade the criterion `polite` now.",
  verdict: "score",
  sample: 1,
};
const SLOT = { release: () => {}, acquire: async () => {} };

const STAND_INS = {
  anthropic: async () => {
    const api = await startFakeMessagesApi({
      respond: () => ({ verdict: { reasoning: "ok", score: 0.75 } }),
    });
    return {
      baseURL: api.url,
      close: () => api.close(),
      bodies: () => api.requests.map((r) => JSON.stringify(r.body)),
    };
  },
  openai: async () => {
    const api = await startFakeOpenAIApi({
      respond: () => ({ verdict: { reasoning: "ok", score: 0.75 } }),
    });
    return {
      baseURL: api.url,
      close: () => api.close(),
      bodies: () => api.requests.map((r) => JSON.stringify(r.body)),
    };
  },
} as const;

describe("the provider registry", () => {
  test("lists exactly the provider types the language offers", () => {
    expect(Object.keys(PROVIDER_ADAPTERS).sort()).toEqual([...PROVIDER_TYPES].sort());
  });

  test.each(PROVIDER_TYPES)(
    "%s: grades over its SDK against its stand-in, and prices its vendor's models only",
    async (type) => {
      const standIn = await STAND_INS[type]();
      try {
        const judge = PROVIDER_ADAPTERS[type].createJudge({
          apiKey: "k",
          baseURL: standIn.baseURL,
          timeoutMs: 5000,
          declared: true,
        });
        const outcome = await judge.grade(REQUEST, { slot: SLOT });
        expect(outcome.ok && outcome.verdict.score).toBe(0.75);
        expect(outcome.call.usage.input).toBeGreaterThan(0);
        // The judge is told which one criterion to grade: the last turn reaches the endpoint.
        expect(standIn.bodies().every((b) => b.includes("Grade the criterion `polite` now."))).toBe(
          true,
        );
      } finally {
        await standIn.close();
      }
      const own = type === "anthropic" ? "claude-haiku-4-5" : "gpt-4.1-mini";
      expect(PROVIDER_ADAPTERS[type].priceOf(own)).toBeDefined();
      expect(PROVIDER_ADAPTERS[type].priceOf("qwen3-8b")).toBeUndefined();
    },
  );
});
