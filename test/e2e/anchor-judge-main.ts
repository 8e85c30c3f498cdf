import { parseArgs } from "node:util";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { anchorReply } from "./calibration-fixtures";

// The stand-in Messages API of the e2e dashboard that has a judge key
// (playwright.config.ts): answers the calibration fixtures' anchors with
// their scripted verdicts. Stops on SIGTERM or SIGINT.

const { values } = parseArgs({ options: { port: { type: "string" } }, strict: true });
const api = await startFakeMessagesApi({ port: Number(values.port), respond: (request) => anchorReply(request) });
process.stdout.write(`READY ${api.url}\n`);
const stop = () => void api.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
