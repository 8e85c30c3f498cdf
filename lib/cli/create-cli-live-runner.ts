import path from "node:path";
import type { Settings } from "../env/read-env";
import { createRetryingMessages } from "../judge/retrying-messages";
import { allowAllServers } from "../live/allow-servers";
import { createLiveRunner, type AgentEndpoint, type LiveRunner } from "../live/create-live-runner";

// The live port for a CLI run. The CLI runs the user's own suite file, so it
// may start every stdio server that file names (allowAllServers); the
// dashboard passes allowListedServers(...) instead. `eval` passes where each
// agent model runs (its provider setup: Claude, OpenAI, a local server); a
// caller without one runs Claude agents only, and without an Anthropic key
// has no runner: every eval defers anyway, and no server is started for nothing.

export function createCliLiveRunner(input: {
  settings: Settings;
  suiteFile: string;
  cwd: string;
  timeoutSeconds: number;
  toolVersion: string;
  endpointFor?: (model: string) => AgentEndpoint;
}): LiveRunner | undefined {
  const { settings } = input;
  const common = {
    baseDir: path.dirname(path.resolve(input.cwd, input.suiteFile)),
    allowServer: allowAllServers,
    clientVersion: input.toolVersion,
  };
  // Planning defers the evals whose agent model has no key, so a runner here starts servers only
  // for agents that can run.
  if (input.endpointFor) return createLiveRunner({ ...common, endpointFor: input.endpointFor });
  if (!settings.anthropicApiKey) return undefined;
  return createLiveRunner({
    ...common,
    // The same retry policy as the judge (4 retries, retry-after, slot handed back while waiting).
    messages: createRetryingMessages({
      apiKey: settings.anthropicApiKey,
      ...(settings.anthropicBaseUrl !== undefined ? { baseURL: settings.anthropicBaseUrl } : {}),
      timeoutMs: input.timeoutSeconds * 1000,
    }),
  });
}
