import path from "node:path";
import type { Settings } from "../env/read-env";
import { createRetryingMessages } from "../judge/retrying-messages";
import { createLiveRunner, type AgentEndpoint, type LiveRunner } from "../live/create-live-runner";
import { dashboardAllowServer, type ServerAllowList } from "../live/server-allow-list";
import type { StoredRun } from "../store/run-store";
import { createCliLiveRunner } from "./create-cli-live-runner";

// Which MCP servers a queued run's live evals may start, for every queue
// worker (the dashboard's in-process one, `rubric-studio worker`, and the one
// in `eval --queue`):
//   - a run queued from the CLI: every server its own suite file names, as
//     `eval` does (the user runs their own file);
//   - any other run (the dashboard's Run button): only the servers of the
//     allow-list file (RUBRIC_STUDIO_MCP_SERVERS), each with exactly the
//     listed command and args (or URL); a refused server defers its evals
//     with the reason; its agents run on the server's providers
//     (agentEndpoints), as its judges do. Relative paths (`cwd`, and `args` under it) are taken
//     from the allow-list file's folder, since a browser-authored suite has
//     no folder of its own.
// The allow-list itself (reading it, the check it makes) is lib/live's
// policy: lib/live/server-allow-list.ts, which the dashboard reads too.

export function liveForRun(input: {
  settings: Settings;
  allowList: ServerAllowList | undefined;
  timeoutSeconds: number;
  /**
   * Where a dashboard run's agents run: the server's providers (providers-for-run.ts); without it,
   * Claude agents on ANTHROPIC_API_KEY.
   */
  agentEndpoints?: (model: string) => AgentEndpoint;
}): (run: StoredRun) => LiveRunner | undefined {
  const { settings, allowList, agentEndpoints } = input;
  return (run) => {
    if (agentEndpoints && run.startedBy !== "cli") {
      // An agent model whose provider has no key defers in planning (the worker resolves it).
      return createLiveRunner({
        endpointFor: agentEndpoints,
        baseDir: allowList ? path.dirname(allowList.file) : process.cwd(),
        allowServer: dashboardAllowServer(allowList),
        clientVersion: run.config.toolVersion,
      });
    }
    // Without a key every eval defers anyway: start no server for nothing.
    if (!settings.anthropicApiKey) return undefined;
    if (run.startedBy === "cli") {
      return createCliLiveRunner({
        settings,
        suiteFile: run.config.file,
        cwd: run.config.cwd ?? process.cwd(),
        timeoutSeconds: input.timeoutSeconds,
        toolVersion: run.config.toolVersion,
      });
    }
    return createLiveRunner({
      messages: createRetryingMessages({
        apiKey: settings.anthropicApiKey,
        ...(settings.anthropicBaseUrl !== undefined ? { baseURL: settings.anthropicBaseUrl } : {}),
        timeoutMs: input.timeoutSeconds * 1000,
      }),
      baseDir: allowList ? path.dirname(allowList.file) : process.cwd(),
      allowServer: dashboardAllowServer(allowList),
      clientVersion: run.config.toolVersion,
    });
  };
}
