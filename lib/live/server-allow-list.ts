import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatIssue } from "../config/load-suite";
import { loadServerAllowList } from "../config/load-server-allow-list";
import type { ServerConfig } from "../config/types";
import { allowListedOrNone, type AllowServer } from "./allow-servers";

// The dashboard's MCP allow-list: the file named by RUBRIC_STUDIO_MCP_SERVERS
// (read from the environment once, in lib/env, and passed in here), whose
// servers, with exactly their listed command and args (or URL), are the only
// ones a run started from the browser may start. The queue workers
// (lib/cli/live-for-run.ts) and the editor's plan panel
// (app/api/validate/route.ts) both read it here.

/** The setting that names the file (Settings.mcpServersFile). */
export interface AllowListSetting {
  mcpServersFile?: string | undefined;
}

export interface ServerAllowList {
  /** The file it was read from. */
  file: string;
  servers: Record<string, ServerConfig>;
}

export type AllowListRead =
  { ok: true; value: ServerAllowList | undefined } | { ok: false; message: string };

/** The allow-list named by RUBRIC_STUDIO_MCP_SERVERS, or undefined when none is set. */
export async function readServerAllowList(
  settings: AllowListSetting,
  cwd = process.cwd(),
): Promise<AllowListRead> {
  if (settings.mcpServersFile === undefined) return { ok: true, value: undefined };
  const file = path.resolve(cwd, settings.mcpServersFile);
  let text: string;
  try {
    // The file is named at run time (RUBRIC_STUDIO_MCP_SERVERS), never part of
    // the build: without the comment Turbopack traces the whole project into
    // the server output for the editor's validate route.
    text = await readFile(/* turbopackIgnore: true */ file, "utf8");
  } catch (error) {
    return {
      ok: false,
      message: `RUBRIC_STUDIO_MCP_SERVERS: cannot read ${file}: ${(error as Error).message}`,
    };
  }
  const loaded = loadServerAllowList({ text, file });
  if (!loaded.ok)
    return {
      ok: false,
      message: `the MCP allow-list does not load:\n${loaded.issues.map(formatIssue).join("\n")}`,
    };
  return { ok: true, value: { file, servers: loaded.value } };
}

/** The check a dashboard run's servers pass: the allow-list's, or none allowed without one. */
export function dashboardAllowServer(allowList: ServerAllowList | undefined): AllowServer {
  return allowListedOrNone(allowList?.servers);
}

let cached: Promise<AllowListRead> | undefined;

/** The allow-list for the editor's plan panel, read once per process (the server reads it at start too). */
export function dashboardAllowList(settings: AllowListSetting): Promise<AllowListRead> {
  cached ??= readServerAllowList(settings);
  return cached;
}
