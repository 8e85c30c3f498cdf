import { parentPort } from "node:worker_threads";
import { runFuzzCase } from "./fuzz-case";

// The worker thread the fuzz pool runs cases in, so that a case that hangs
// can be stopped (the worker is terminated) and one that exhausts memory
// takes down only its worker.

parentPort!.on("message", (message: { id: number; text: string }) => {
  parentPort!.postMessage({ id: message.id, ...runFuzzCase(message.text) });
});
