import type { ServerConfig } from "../config/types";

// Which servers a run may start. Starting a stdio server runs a command on
// this machine, so the caller decides: the CLI runs the user's own file and
// allows every server it names; the dashboard, where a browser authors the
// suite, allows only the servers its own configuration lists, with exactly
// the configuration listed there (same command, args, env and cwd, or the
// same url and headers), so a suite cannot reuse a listed name for another
// command. A refused server defers its evals with the reason.

/** true to allow, or the reason the server is refused. */
export type AllowServer = (server: { name: string; config: ServerConfig }) => true | string;

export const allowAllServers: AllowServer = () => true;

/** Key order does not matter when comparing configurations. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, inner]) => inner !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  }
  return value;
}

export function allowListedServers(listed: Record<string, ServerConfig>): AllowServer {
  return ({ name, config }) => {
    const allowed = listed[name];
    if (!allowed) {
      const names = Object.keys(listed);
      return `it is not among the servers this deployment allows (${names.length ? names.join(", ") : "none"})`;
    }
    // Timeouts are the suite's to choose; what runs and where it connects is not.
    const { startTimeoutSeconds: _s1, toolTimeoutSeconds: _t1, ...wanted } = config;
    const { startTimeoutSeconds: _s2, toolTimeoutSeconds: _t2, ...known } = allowed;
    if (JSON.stringify(canonical(wanted)) !== JSON.stringify(canonical(known))) {
      return "its configuration differs from the one this deployment allows under that name";
    }
    return true;
  };
}

const NO_ALLOW_LIST: AllowServer = () =>
  "this server allows no MCP servers for suites run from the dashboard; list them in the file named by RUBRIC_STUDIO_MCP_SERVERS";

/** The dashboard's check: the servers of its allow-list, or none at all without one. */
export function allowListedOrNone(listed: Record<string, ServerConfig> | undefined): AllowServer {
  return listed ? allowListedServers(listed) : NO_ALLOW_LIST;
}
