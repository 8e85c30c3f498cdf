import { renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { anchorReply } from "./calibration-fixtures";

// The stand-in Messages API of the e2e dashboard that has a judge key
// (playwright.config.ts): answers the calibration fixtures' anchors with
// their scripted verdicts. Stops on SIGTERM or SIGINT.

const { values } = parseArgs({ options: { port: { type: "string" } }, strict: true });
const api = await startFakeMessagesApi({
  port: Number(values.port),
  respond: (request) => anchorReply(request),
});
// The number of requests answered so far, kept in the file E2E_JUDGE_CALLS
// names, so a spec can tell whether a page made the judge work.
const callsFile = process.env.E2E_JUDGE_CALLS;
if (callsFile) {
  // Written aside and renamed into place, so a reader never sees a half-written file.
  const write = () => {
    writeFileSync(`${callsFile}.next`, String(api.requests.length));
    renameSync(`${callsFile}.next`, callsFile);
  };
  write();
  setInterval(write, 50).unref();
}
process.stdout.write(`READY ${api.url}\n`);
const stop = () => void api.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
