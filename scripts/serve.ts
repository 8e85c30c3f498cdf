// `npm run dev` / `npm start`: the dashboard with its database and a worker.
//   - DATABASE_URL unset: serves the embedded PGlite database (.data/pglite)
//     over the Postgres protocol, so the CLI can use it at the same time;
//   - applies migrations, loads the example suite into an empty database;
//   - runs an in-process queue worker (runs started from the dashboard, or
//     `rubric-studio eval --queue`, are graded here and by any other worker);
//   - starts Next.js (dev or production) with DATABASE_URL pointing there.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { readEnv } from "../lib/env/read-env";
import { openDatabase } from "../lib/store/open-database";
import { createRunStore } from "../lib/store/run-store";
import { openQueue, startWorker } from "../lib/store/run-worker";
import { createAnthropicJudge } from "../lib/judge/anthropic-judge";
import { priceOf } from "../lib/judge/pricing";

const mode = process.argv[2] === "start" ? "start" : "dev";
const nextArgs = process.argv.slice(3);
const settings = readEnv();
if (!settings.ok) {
  console.error(`error: ${settings.message}`);
  process.exit(2);
}
const { value } = settings;
const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

const db = await openDatabase({ databaseUrl: value.databaseUrl, dataDir: value.dataDir, poolSize: 4 });
if (db.source === "shared") {
  console.error("error: another process already serves the embedded database (.data/pglite); stop it, or set DATABASE_URL");
  await db.close();
  process.exit(2);
}
console.log(`database: ${db.source === "url" ? "DATABASE_URL" : `embedded PGlite at ${db.url}`}`);

if ((await db.prisma.suite.count()) === 0) {
  const yaml = await readFile(new URL("../examples/rubric-eval.yaml", import.meta.url), "utf8");
  await createRunStore(db.prisma).saveSuiteVersion({ name: "examples/rubric-eval.yaml", yaml });
  console.log("loaded the example suite examples/rubric-eval.yaml");
}

const boss = await openQueue({ db });
const worker = await startWorker({
  db,
  boss,
  judge: createAnthropicJudge({ apiKey: value.anthropicApiKey ?? "unset", baseURL: value.anthropicBaseUrl }),
  priceOf,
  concurrency: 8,
  judgeModel: value.judgeModel,
  ...(value.anthropicApiKey ? {} : { judgeUnavailable: "no judge key: set ANTHROPIC_API_KEY on the server to grade for real" }),
  toolVersion: pkg.version,
});
console.log(`queue worker ready${value.anthropicApiKey ? "" : " (no ANTHROPIC_API_KEY: runs will defer)"}`);

// Bind to loopback unless told otherwise: the dashboard has no login yet.
const next = spawn(process.execPath, [new URL("../node_modules/next/dist/bin/next", import.meta.url).pathname, mode, "--hostname", "127.0.0.1", ...nextArgs], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: db.url },
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  await worker.stop();
  await boss.stop({ graceful: true });
  await db.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));
