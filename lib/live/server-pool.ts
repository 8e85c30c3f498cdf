import type { ServerConfig } from "../config/types";
import type { AllowServer } from "./allow-servers";
import type { ConnectResult } from "./server-connection";

// One connection per server per run, shared by the run's evals, started on
// first use (a server only deferred or filtered evals name never starts) and
// closed when the run ends. A server that cannot start is not tried again in
// the same run: every eval on it defers with the same reason. One that died
// mid-run is started afresh for the evals that come after. The MCP SDK is
// loaded with the first server, so a run without live evals never pays for it.

export interface ServerPool {
  acquire(input: { name: string; config: ServerConfig }): Promise<ConnectResult>;
  closeAll(): Promise<void>;
}

export function createServerPool(options: {
  baseDir: string;
  allowServer: AllowServer;
  clientVersion: string;
}): ServerPool {
  const entries = new Map<string, Promise<ConnectResult>>();
  let closed = false;

  const start = (name: string, config: ServerConfig) => {
    const pending = import("./server-connection").then(({ connectServer }) =>
      connectServer({
        name,
        config,
        baseDir: options.baseDir,
        clientVersion: options.clientVersion,
      }),
    );
    entries.set(name, pending);
    return pending;
  };

  return {
    async acquire({ name, config }) {
      if (closed)
        return { ok: false, reason: `server "${name}" was not started: the run has ended` };
      const verdict = options.allowServer({ name, config });
      if (verdict !== true)
        return { ok: false, reason: `server "${name}" is not allowed here: ${verdict}` };
      const current = entries.get(name);
      if (!current) return start(name, config);
      const result = await current;
      if (!result.ok || result.connection.alive) return result;
      // Dead: whoever sees it first restarts it; the others wait for that start.
      return entries.get(name) === current ? start(name, config) : entries.get(name)!;
    },
    async closeAll() {
      closed = true;
      const all = await Promise.all(entries.values());
      entries.clear();
      await Promise.all(all.map((r) => (r.ok ? r.connection.close() : undefined)));
    },
  };
}
