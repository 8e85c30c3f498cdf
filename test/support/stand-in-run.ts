import { afterEach, beforeEach } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { runSuite } from "../../lib/engine/run-suite";
import { createAnthropicJudge } from "../../lib/judge/anthropic-judge";
import { FAKE_API_KEY } from "../judge/judge-helpers";
import { startFakeMessagesApi, type FakeMessagesApi } from "./fake-messages-api";
import { suiteFrom } from "./run-yaml";

// A suite's first result graded through the real Anthropic adapter against the
// stand-in Messages API, one started per test: for tests of what the adapter
// does with a reply (the repair-once rule).

const MODEL = "claude-haiku-4-5-20251001";

export function standInPerTest(): {
  api: () => FakeMessagesApi;
  run: (yaml: string) => Promise<EvalResult>;
} {
  let api: FakeMessagesApi | undefined;
  beforeEach(async () => {
    api = await startFakeMessagesApi();
  });
  afterEach(async () => {
    await api?.close();
  });
  const current = () => {
    if (!api)
      throw new Error("the stand-in starts in beforeEach: call standInPerTest() in a describe");
    return api;
  };
  return {
    api: current,
    run: async (yaml) => {
      const report = await runSuite(
        { suite: suiteFrom(yaml), defaultModel: MODEL, concurrency: 1, toolVersion: "0.0.0-test" },
        {
          judge: createAnthropicJudge({
            apiKey: FAKE_API_KEY,
            baseURL: current().url,
            timeoutMs: 2_000,
          }),
          now: Date.now,
          priceOf: () => undefined,
        },
      );
      return report.results[0]!;
    },
  };
}
