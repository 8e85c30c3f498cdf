// Loaded into the Next server process by scripts/serve.ts (`--import`, via
// NODE_OPTIONS), always. A client that hangs up mid-upload makes Next's
// proxy step (which reads the request body for proxy.ts) fail with Node's
// `Error: aborted` (code ECONNRESET), which Next prints whole, four lines a
// request: a client that opens and drops uploads in a loop floods the log.
// Such an error says nothing about the server, so it is counted instead, and
// said in at most one short line a minute. Everything else Next prints goes
// through unchanged. Plain JavaScript: it loads before anything can compile
// TypeScript.

/** At most one line about aborted requests per this many milliseconds. */
const REPORT_EVERY_MS = 60_000;

/** Node's error for a request whose client went away before its body was read. */
function isClientAbort(value) {
  return value instanceof Error && value.message === "aborted" && value.code === "ECONNRESET";
}

const print = console.error.bind(console);
let lastReport = -Infinity;
let unreported = 0;

console.error = (...args) => {
  if (!args.some(isClientAbort)) return print(...args);
  unreported++;
  const now = Date.now();
  if (now - lastReport < REPORT_EVERY_MS) return;
  lastReport = now;
  print(
    `${unreported} request${unreported === 1 ? "" : "s"} aborted by the client before the body was read (ECONNRESET; at most one such line a minute)`,
  );
  unreported = 0;
};
