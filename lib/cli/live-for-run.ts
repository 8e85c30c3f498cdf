import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatIssue } from "../config/load-suite";
import { loadServerAllowList } from "../config/load-server-allow-list";
import type { ServerConfig } from "../config/types";
import type { Settings } from "../env/read-env";
import { createRetryingMessages } from "../judge/retrying-messages";
import { allowListedOrNone, type AllowServer } from "../live/allow-servers";
import { createLiveRunner, type LiveRunner } from "../live/create-live-runner";
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
//     with the reason. Relative paths (`cwd`, and `args` under it) are taken
//     from the allow-list file's folder, since a browser-authored suite has
//     no folder of its own.

export interface ServerAllowList {
  /** The file it was read from. */
  file: string;
  servers: Record<string, ServerConfig>;
}

export type AllowListRead = { ok: true; value: ServerAllowList | undefined } | { ok: false; message: string };

/** The allow-list named by RUBRIC_STUDIO_MCP_SERVERS, or undefined when none is set. */
export async function readServerAllowList(settings: Pick<Settings, "mcpServersFile">, cwd = process.cwd()): Promise<AllowListRead> {
  if (settings.mcpServersFile === undefined) return { ok: true, value: undefined };
  const file = path.resolve(cwd, settings.mcpServersFile);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { ok: false, message: `RUBRIC_STUDIO_MCP_SERVERS: cannot read ${file}: ${(error as Error).message}` };
  }
  const loaded = loadServerAllowList({ text, file });
  if (!loaded.ok) return { ok: false, message: `the MCP allow-list does not load:\n${loaded.issues.map(formatIssue).join("\n")}` };
  return { ok: true, value: { file, servers: loaded.value } };
}

/** The check a dashboard run's servers pass: the allow-list's, or none allowed without one. */
export function dashboardAllowServer(allowList: ServerAllowList | undefined): AllowServer {
  return allowListedOrNone(allowList?.servers);
}

let cached: Promise<AllowListRead> | undefined;

/** The allow-list for the editor's plan panel, read once per process (the server reads it at start too). */
export function dashboardAllowList(settings: Pick<Settings, "mcpServersFile">): Promise<AllowListRead> {
  cached ??= readServerAllowList(settings);
  return cached;
}

export function liveForRun(input: { settings: Settings; allowList: ServerAllowList | undefined; timeoutSeconds: number }): (run: StoredRun) => LiveRunner | undefined {
  const { settings, allowList } = input;
  return (run) => {
    // Without a key every eval defers anyway: start no server for nothing.
    if (!settings.anthropicApiKey) return undefined;
    if (run.startedBy === "cli") {
      return createCliLiveRunner({ settings, suiteFile: run.config.file, cwd: run.config.cwd ?? process.cwd(), timeoutSeconds: input.timeoutSeconds, toolVersion: run.config.toolVersion });
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
