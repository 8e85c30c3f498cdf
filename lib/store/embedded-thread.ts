import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ThreadAnswer } from "./embedded-database-thread";
import type { EmbeddedServer, EmbeddedServerOptions } from "./embedded-postgres";

// The embedded database (PGlite and the socket that serves it, embedded-postgres.ts) runs on a
// thread of its own: its SQL is WebAssembly that runs to the end of each statement, and on the
// process's main thread every statement stalled the run's judge calls (a stored run on PGlite
// spent over half its main thread there) and, in the dashboard, every page. The process talks to
// it over the wire protocol as before, so nothing else changes; on two cores the two now work at
// once. The thread's entry is bin/embedded-database.mjs (the bundle in dist/offthread when fresh,
// the TypeScript through tsx otherwise), found from this file, not the working directory.

const ENTRY = fileURLToPath(new URL("../../bin/embedded-database.mjs", import.meta.url));

/** Serves `dataDir` from a thread of this process; `stop()` closes the database and ends the thread. */
export async function startEmbeddedServer(input: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const worker = new Worker(ENTRY, { workerData: input });
  const exited = once(worker, "exit").then(([code]) => code as number);
  const answer = await Promise.race([
    once(worker, "message").then(([message]) => message as ThreadAnswer),
    exited.then((code): ThreadAnswer => ({
      ok: false,
      message: `the embedded database's thread ended (exit code ${code}) before it served ${input.dataDir}`,
    })),
  ]);
  if (!answer.ok) {
    await worker.terminate();
    throw new Error(answer.message);
  }
  // Should the thread fail later (its WebAssembly out of memory, say), the process's queries fail
  // with a closed connection, each where it was asked; this says why, once, instead of ending it.
  worker.once("error", (error) =>
    process.stderr.write(`error: the embedded database stopped: ${error.message}\n`),
  );
  let stopped: Promise<void> | undefined;
  return {
    url: answer.url,
    stop() {
      stopped ??= (async () => {
        worker.postMessage("stop");
        // The thread ends once its database is closed; one that does not within 30 s is ended.
        const timer = setTimeout(() => void worker.terminate(), 30_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}
