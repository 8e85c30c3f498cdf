import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { startFakeMessagesApi, type FakeReply } from "./fake-messages-api";

// The fake Messages API in its own process, for benchmarks that must not share
// an event loop with the server they call:
//   tsx test/support/fake-messages-api-main.ts --port 0 --latency-ms 20 --rate-429 0.1 --retry-after 1
// Prints `READY <url>` on stdout once it listens; stops on SIGTERM or SIGINT.
// A line `stats` on stdin prints `STATS {"requests":n,"rateLimited":m,"usage":{...}}`:
// what it has received, how many of those it answered 429, and the input usage
// it reported (uncached, cache writes, cache reads), since it started; with
// `answered` (200 replies, billed), `inFlight` (received, not answered yet),
// `abandoned` (the client left before its answer: a killed process's calls in
// flight) and `batches` (each Message Batch created: its request count) and
// `batchBilled` (how many batched custom_ids were billed once, and more than once).
// `--prompt-cache MIN_TOKENS` emulates the prompt cache (prompt-cache.ts) with
// that minimum cacheable prefix.

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    "latency-ms": { type: "string", default: "0" },
    "rate-429": { type: "string", default: "0" },
    "retry-after": { type: "string" },
    "prompt-cache": { type: "string" },
  },
  strict: true,
});

const port = wholeNumber("port", values.port);
const latencyMs = wholeNumber("latency-ms", values["latency-ms"]);
const rate429 = Number(values["rate-429"]);
if (!(rate429 >= 0 && rate429 <= 1))
  fail(`--rate-429 must be a fraction in 0..1, got ${values["rate-429"]}`);
const retryAfter = values["retry-after"];
if (retryAfter !== undefined && !(Number(retryAfter) >= 0))
  fail(`--retry-after must be seconds, got ${retryAfter}`);

const ok: FakeReply = { verdict: { reasoning: "ok", score: 1 } };
const limited: FakeReply = {
  status: 429,
  headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
  body: {
    type: "error",
    error: {
      type: "rate_limit_error",
      message: "Number of request tokens has exceeded your per-minute rate limit",
    },
  },
};

const promptCache =
  values["prompt-cache"] === undefined
    ? undefined
    : { minTokens: wholeNumber("prompt-cache", values["prompt-cache"]) };

let rateLimited = 0;
const api = await startFakeMessagesApi({
  port,
  latencyMs,
  ...(promptCache ? { promptCache } : {}),
  respond: () => {
    if (rate429 > 0 && Math.random() < rate429) {
      rateLimited++;
      return limited;
    }
    return ok;
  },
});
process.stdout.write(`READY ${api.url}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "stats")
    process.stdout.write(
      `STATS ${JSON.stringify({
        requests: api.requests.length,
        rateLimited,
        usage: api.usage(),
        answered: api.answered(),
        inFlight: api.inFlight(),
        abandoned: api.abandoned(),
        batches: api.batches.map((b) => b.requests.length),
        batchBilled: billedCounts(),
      })}\n`,
    );
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void api.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

function billedCounts(): { once: number; more: number } {
  let once = 0;
  let more = 0;
  for (const times of api.batchBilled.values())
    if (times === 1) once++;
    else more++;
  return { once, more };
}

function wholeNumber(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a whole number, got ${text}`);
  return value;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
