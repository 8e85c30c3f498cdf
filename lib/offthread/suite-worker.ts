import { parentPort } from "node:worker_threads";
import { runSuiteTask, type SuiteTask } from "./suite-task";

// The worker thread's side: one task at a time, answered by id. A task that
// throws (a bug in the loader, not bad input: bad input is a located issue)
// is answered as a failure, so the pool can say so instead of hanging.

const port = parentPort;
if (!port) throw new Error("suite-worker.ts runs only as a worker thread");

port.on("message", ({ id, task }: { id: number; task: SuiteTask }) => {
  try {
    port.postMessage({ id, ok: true, value: runSuiteTask(task) });
  } catch (error) {
    port.postMessage({
      id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
port.postMessage({ ready: true });
