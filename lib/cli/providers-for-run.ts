import type { ProviderConfig } from "../config/provider-schema";
import type { SuiteConfig } from "../config/types";
import type { Settings } from "../env/read-env";
import type { AgentEndpoint } from "../live/create-live-runner";
import type { RunBatchContext, RunProviders } from "../store/run-worker";
import type { StoredRun } from "../store/run-store";
import { batchOptions } from "./batch-mode";
import { createProviderSetup } from "../judge/provider-setup";
import { serverProviderSetup } from "../judge/server-providers";

// Which providers a queued run's judge models resolve to, for every queue
// worker (the dashboard's in-process one, `rubric-studio worker`, and the one
// in `eval --queue`):
//   - a run queued from the CLI: its own suite's providers: block, as `eval`
//     resolves it (the user runs their own file, with their own variables);
//   - any other run (the dashboard's Run button): the server's providers only
//     (RUBRIC_STUDIO_PROVIDERS and the built-in anthropic and openai), as
//     Check anchors and Run calibration judge: lib/judge/server-providers.ts's
//     serverProviderSetup. (The Run button refuses a suite whose own block
//     differs before it is queued: lib/config/server-providers.ts.)
// A run queued with --batch (or "Run as batch") gets a judge that sends the
// Anthropic API's requests through Message Batches, with the run's ledger.
// Keys are read by lib/env; the file by lib/judge/server-providers.ts.

export function providersForRun(input: {
  settings: Settings;
  /** Where declared providers' keys are read (lib/env/read-provider-keys.ts reads only the names asked for). */
  env: Record<string, string | undefined>;
  serverProviders: Readonly<Record<string, ProviderConfig>>;
  timeoutSeconds: number;
  /** Where a batched run's progress lines go (stderr, the server's log); without it they are not shown. */
  say?: (text: string) => void;
}): (run: StoredRun, suite: SuiteConfig, batch?: RunBatchContext) => RunProviders {
  const { env } = input;
  return (run, suite, batch) => {
    const setup =
      run.startedBy === "cli"
        ? createProviderSetup({ suite, settings: input.settings, env })
        : serverProviderSetup({ settings: input.settings, env, providers: input.serverProviders });
    const batchJudging =
      batch && run.config.batch
        ? {
            batch: batchOptions({
              pollSeconds: run.config.batch.pollSeconds ?? 30,
              say: input.say ?? (() => {}),
              ...(input.settings.batchMaxRequests !== undefined
                ? { maxRequests: input.settings.batchMaxRequests }
                : {}),
              ...batch,
            }),
          }
        : {};
    return {
      judge: setup.createJudge({ timeoutMs: input.timeoutSeconds * 1000, ...batchJudging }),
      priceOf: setup.priceOf,
      resolveModel: setup.resolve,
      secrets: setup.secrets,
    };
  };
}

/**
 * Where a dashboard run's live agents run: the server's providers, as its judges (lib/live's
 * endpointFor for liveForRun).
 */
export function serverAgentEndpoints(input: {
  settings: Settings;
  env: Record<string, string | undefined>;
  serverProviders: Readonly<Record<string, ProviderConfig>>;
  timeoutSeconds: number;
}): (model: string) => AgentEndpoint {
  return serverProviderSetup({
    settings: input.settings,
    env: input.env,
    providers: input.serverProviders,
  }).agentEndpoints({ timeoutMs: input.timeoutSeconds * 1000 });
}
