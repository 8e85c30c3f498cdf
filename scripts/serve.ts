// `npm run dev` / `npm start`: the dashboard with its database and a worker.
//   - DATABASE_URL unset: serves the embedded PGlite database (.data/pglite)
//     over the Postgres protocol, so the CLI can use it at the same time;
//   - applies migrations, loads the example suite into an empty database;
//   - runs an in-process queue worker (runs started from the dashboard, or
//     `rubric-studio eval --queue`, are graded here and by any other worker);
//   - `start` builds the app first unless .next is newer than the sources
//     (scripts/next-command.ts), so a fresh clone's `npm start` just works;
//   - starts Next.js (dev or production) with DATABASE_URL pointing there, on
//     127.0.0.1 unless `--host` (or RUBRIC_STUDIO_HOST) says otherwise; off
//     loopback only with RUBRIC_STUDIO_PASSWORD set (every request then needs
//     a login, checked by proxy.ts).
// The Node check comes first: imports run in order, and nothing else may load before it.
import "../bin/require-node.mjs";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { readEnv } from "../lib/env/read-env";
import { openDatabase } from "../lib/store/open-database";
import { createRunStore } from "../lib/store/run-store";
import { openQueue } from "../lib/store/grade-queue";
import { startWorker } from "../lib/store/run-worker";
import { agreementThread } from "../lib/offthread/agreement-off-thread";
import { readServerProviders } from "../lib/judge/server-providers";
import { checkBinding } from "../lib/access/binding";
import { liveForRun } from "../lib/cli/live-for-run";
import { providersForRun, serverAgentEndpoints } from "../lib/cli/providers-for-run";
import { runSuiteLoader } from "../lib/cli/run-suite-loader";
import { readServerAllowList } from "../lib/live/server-allow-list";
import { BUILD_NOTICE, buildIsCurrent, ensureBuild, NEXT_BIN, nextEnv } from "./next-command";

const mode = process.argv[2] === "start" ? "start" : "dev";

/** `--host X` / `--host=X` (also -H and --hostname, as next takes them) are ours; the rest goes to next. */
function splitHost(args: string[]): { host?: string; rest: string[] } {
  const rest: string[] = [];
  let host: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const inline = /^--(?:host|hostname)=(.*)$/.exec(arg);
    if (inline) host = inline[1];
    else if (arg === "--host" || arg === "--hostname" || arg === "-H") host = args[++i];
    else rest.push(arg);
  }
  return { host, rest };
}

// Said before anything else is set up, so the minutes of building that follow are expected.
const buildNoticeSaid = mode === "start" && !buildIsCurrent();
if (buildNoticeSaid) console.log(`npm start: ${BUILD_NOTICE}`);

const { host: hostArg, rest: nextArgs } = splitHost(process.argv.slice(3));
const settings = readEnv();
if (!settings.ok) {
  console.error(`error: ${settings.message}`);
  process.exit(2);
}
const { value } = settings;
const binding = checkBinding({ host: hostArg ?? value.host, password: value.password });
if (!binding.ok) {
  console.error(`error: ${binding.message}`);
  process.exit(2);
}
const allowList = await readServerAllowList(value);
if (!allowList.ok) {
  console.error(`error: ${allowList.message}`);
  process.exit(2);
}
const providers = await readServerProviders(value);
if (!providers.ok) {
  console.error(`error: ${providers.message}`);
  process.exit(2);
}
// Sessions are sealed with this secret; one made here lasts until the server
// stops (everyone logs in again after a restart).
const sessionSecret = value.sessionSecret ?? randomBytes(32).toString("base64url");
const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const db = await openDatabase({
  databaseUrl: value.databaseUrl,
  dataDir: value.dataDir,
  poolSize: 4,
});
if (db.source === "shared") {
  console.error(
    "error: another process already serves the embedded database (.data/pglite); stop it, or set DATABASE_URL",
  );
  await db.close();
  process.exit(2);
}
// The embedded server's password stays in its server.json (0600), not in the terminal's log.
const shownUrl = new URL(db.url);
shownUrl.password = "";
console.log(
  `database: ${db.source === "url" ? "DATABASE_URL" : `embedded PGlite at ${shownUrl.href} (password in ${value.dataDir ?? ".data/pglite"}.server.json)`}`,
);

if ((await db.prisma.suite.count()) === 0) {
  const yaml = await readFile(new URL("../examples/rubric-eval.yaml", import.meta.url), "utf8");
  await createRunStore(db.prisma).saveSuiteVersion({ name: "examples/rubric-eval.yaml", yaml });
  console.log("loaded the example suite examples/rubric-eval.yaml");
}

const boss = await openQueue({ db });
const worker = await startWorker({
  db,
  boss,
  // Dashboard runs resolve their models against the server's providers only (lib/cli/providers-for-run.ts).
  // "Run as batch" goes through Message Batches, its progress in the server's log.
  providersFor: providersForRun({
    // With the session secret made here: its value is redacted from results too.
    settings: { ...value, sessionSecret },
    env: process.env,
    serverProviders: providers.value.providers,
    timeoutSeconds: 60,
    say: (text) => process.stdout.write(text),
  }),
  concurrency: 8,
  judgeModel: value.judgeModel,
  toolVersion: pkg.version,
  // A run queued by the CLI is read as the CLI's workers read it (its dataset files, a file's bounds).
  suiteOf: runSuiteLoader(value),
  liveFor: liveForRun({
    settings: value,
    allowList: allowList.value,
    timeoutSeconds: 60,
    agentEndpoints: serverAgentEndpoints({
      settings: value,
      env: process.env,
      serverProviders: providers.value.providers,
      timeoutSeconds: 60,
    }),
  }),
  // A finished run's judge agreement on a thread: this process also serves the embedded database.
  computeAgreement: agreementThread(
    fileURLToPath(new URL("../bin/suite-worker.mjs", import.meta.url)),
  ),
  log: (line) => console.warn(line),
});
console.log(
  `queue worker ready${value.anthropicApiKey ? "" : " (no ANTHROPIC_API_KEY: Claude judge models will defer)"}`,
);
console.log(
  providers.value.file
    ? `model providers for dashboard runs (${providers.value.file}): anthropic, openai, ${Object.keys(providers.value.providers).join(", ") || "none more"}`
    : "model providers for dashboard runs: anthropic, openai (RUBRIC_STUDIO_PROVIDERS names a file of more)",
);
console.log(
  allowList.value
    ? `MCP servers allowed for dashboard runs (${allowList.value.file}): ${Object.keys(allowList.value.servers).join(", ") || "none"}`
    : "no MCP allow-list (RUBRIC_STUDIO_MCP_SERVERS): live evals of dashboard runs defer",
);
// `npm start` builds first when .next is missing or older than the sources (a fresh clone, a pull).
if (mode === "start") {
  try {
    // Its notice was said first thing (above), before the database and the worker.
    await ensureBuild({ announced: buildNoticeSaid });
  } catch (error) {
    console.error(`error: ${(error as Error).message}; \`npm run build\` shows why`);
    await worker.stop();
    await boss.stop({ graceful: false });
    await db.close();
    process.exit(1);
  }
}
console.log(
  binding.loginRequired
    ? `listening on ${binding.host}: every page and route asks for the password (RUBRIC_STUDIO_PASSWORD)`
    : `listening on ${binding.host} only (no login on loopback)`,
);

// Without a trusted proxy, X-Forwarded-* headers from clients are dropped as
// requests arrive (lib/access/ignore-forwarded-headers.mjs).
const ignoreForwarded = value.trustProxy
  ? ""
  : `--import=${new URL("../lib/access/ignore-forwarded-headers.mjs", import.meta.url).href}`;
// A client that aborts an upload is one short line a minute at most, not Next's four-line error each time.
const quietAborts = `--import=${new URL("../lib/access/quiet-client-aborts.mjs", import.meta.url).href}`;
const next = spawn(process.execPath, [NEXT_BIN, mode, "--hostname", binding.host, ...nextArgs], {
  stdio: "inherit",
  // The proxy (proxy.ts) decides from these what each request needs; nextEnv turns Next's telemetry off.
  env: nextEnv({
    ...process.env,
    DATABASE_URL: db.url,
    RUBRIC_STUDIO_HOST: binding.host,
    RUBRIC_STUDIO_SESSION_SECRET: sessionSecret,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, ignoreForwarded, quietAborts]
      .filter(Boolean)
      .join(" "),
    ...(allowList.value ? { RUBRIC_STUDIO_MCP_SERVERS: allowList.value.file } : {}),
    ...(providers.value.file ? { RUBRIC_STUDIO_PROVIDERS: providers.value.file } : {}),
  }),
});

let stopping = false;
async function stop(code: number, why: string) {
  if (stopping) return;
  stopping = true;
  // Said, so that a wait for the calls in flight does not read as a hang, and what is kept is known.
  console.log(
    `${why}: stopping. The judge calls in flight finish first; a run's cells not graded yet wait in the queue for the next start.`,
  );
  next.kill("SIGTERM");
  await worker.stop();
  await boss.stop({ graceful: true });
  await db.close();
  console.log("stopped");
  process.exit(code);
}
process.on("SIGINT", () => void stop(0, "Ctrl-C"));
process.on("SIGTERM", () => void stop(0, "SIGTERM"));
next.on(
  "exit",
  (code) =>
    void stop(
      code ?? 0,
      code ? `the web server exited with code ${code}` : "the web server stopped",
    ),
);
