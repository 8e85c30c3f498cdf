import type { LiveOutcome, LivePort, LiveRequest } from "../engine/live-port";
import type { AllowServer } from "./allow-servers";
import { runAgent, type MessagesSender } from "./run-agent";
import { createServerPool } from "./server-pool";

// The live port over MCP and the Messages API: the adapter the CLI (and later
// the dashboard) passes to runSuite as `deps.live`. Create one per run and
// close it when the run ends: that closes every server it started.

export interface LiveRunnerOptions {
  /** lib/judge's createRetryingMessages(...): the same retries as the judge. */
  messages: MessagesSender;
  /** The suite file's folder: stdio servers' cwd resolves against it. */
  baseDir: string;
  /** Which servers may be started: allowAllServers from the CLI, allowListedServers(...) from the dashboard. */
  allowServer: AllowServer;
  /** Reported to servers as the client's version. */
  clientVersion: string;
  now?: () => number;
}

export interface LiveRunner extends LivePort {
  close(): Promise<void>;
}

export function createLiveRunner(options: LiveRunnerOptions): LiveRunner {
  const pool = createServerPool({ baseDir: options.baseDir, allowServer: options.allowServer, clientVersion: options.clientVersion });
  const now = options.now ?? Date.now;
  return {
    async run(request: LiveRequest): Promise<LiveOutcome> {
      const acquired = await pool.acquire({ name: request.serverName, config: request.server });
      if (!acquired.ok) return { kind: "deferred", reason: acquired.reason };
      return runAgent({ request, connection: acquired.connection, messages: options.messages, now });
    },
    close: () => pool.closeAll(),
  };
}
