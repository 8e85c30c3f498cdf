import { parentPort, workerData } from "node:worker_threads";
import { serveEmbedded, type EmbeddedServerOptions } from "./embedded-postgres";

// The embedded database's thread (embedded-thread.ts starts it): serves the data folder it is
// given, answers its URL (or why it cannot), and closes the database when told to stop.

/** What the thread answers: its server's URL, or why it could not serve the folder. */
export type ThreadAnswer = { ok: true; url: string } | { ok: false; message: string };

const port = parentPort!;
try {
  const server = await serveEmbedded(workerData as EmbeddedServerOptions);
  port.once("message", () => {
    void server.stop().finally(() => port.close());
  });
  port.postMessage({ ok: true, url: server.url } satisfies ThreadAnswer);
} catch (error) {
  port.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
  } satisfies ThreadAnswer);
  port.close();
}
