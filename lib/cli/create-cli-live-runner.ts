import path from "node:path";
import type { Settings } from "../env/read-env";
import { createRetryingMessages } from "../judge/retrying-messages";
import { allowAllServers } from "../live/allow-servers";
import { createLiveRunner, type LiveRunner } from "../live/create-live-runner";

// The live port for a CLI run. The CLI runs the user's own suite file, so it
// may start every stdio server that file names (allowAllServers); the
// dashboard passes allowListedServers(...) instead. Without a key there is no
// runner: every eval defers anyway, and no server is started for nothing.

export function createCliLiveRunner(input: { settings: Settings; suiteFile: string; cwd: string; timeoutSeconds: number; toolVersion: string }): LiveRunner | undefined {
  const { settings } = input;
  if (!settings.anthropicApiKey) return undefined;
  return createLiveRunner({
    // The same retry policy as the judge (4 retries, retry-after, slot handed back while waiting).
    messages: createRetryingMessages({
      apiKey: settings.anthropicApiKey,
      ...(settings.anthropicBaseUrl !== undefined ? { baseURL: settings.anthropicBaseUrl } : {}),
      timeoutMs: input.timeoutSeconds * 1000,
    }),
    baseDir: path.dirname(path.resolve(input.cwd, input.suiteFile)),
    allowServer: allowAllServers,
    clientVersion: input.toolVersion,
  });
}
