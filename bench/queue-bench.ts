import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cliEnv } from "./cli-process";
import {
  billedSince,
  billingFigures,
  pendingClaims,
  renderBilling,
  storedResults,
  untilBilled,
  waitForRun,
  type BillingFigures,
  type KillFigures,
} from "./queue-kill";
import { PRELOAD, startStandIn, suiteText, writeDataset, type StandIn } from "./stand-in-process";
import { findPostgresBin, startThrowawayPostgres } from "./throwaway-postgres";

// `npm run bench:queue` (issue 20, many machines): one queued run of N judge
// calls (a generated JSON Lines dataset × 3 criteria, against the Messages API
// stand-in in its own process) graded by 1, then 2 `rubric-studio worker`
// processes on a throwaway Postgres 15 (a fresh server per row). Per row: the
// `eval --queue --detach` that plans and queues it, then wall time from the
// queue to the run's completion, calls per second, and per worker the results it
// graded, its CPU per judge call and its peak RSS (the preload's figures, written
// as the worker exits on SIGTERM).
//
//   --calls N        judge calls in the run (default 300000)
//   --workers LIST   worker counts, one row each (default 1,2)
//   --concurrency N  each worker's (default 256)
//   --latency-ms N   the stand-in's reply time (default 20)
//   --kill-worker-at F  `kill -9` the first worker once the stand-in has billed that share (0..1)
//                    of the calls, and start a replacement at once (heartbeat timeout 10 s, the
//                    least RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS allows, so the killed worker's
//                    jobs go back to the queue); default rows 2 workers
//   --cli DIR        (repeatable) that checkout's CLI queues and works, each in turn, one row per
//                    checkout and worker count (default this one; only this one is built here)
//   --batch          `eval --queue --batch`: the Message Batches stand-in; with --batch-max N
//                    (RUBRIC_STUDIO_BATCH_MAX_REQUESTS, default the API's 100,000) the split size
// Under the table, per row: calls planned and billed, paid twice (beyond the calls in
// flight at the kill or not), the batches and their sizes, results stored (bench/queue-kill.ts).

const { values: args } = parseArgs({
  options: {
    calls: { type: "string", default: "300000" },
    workers: { type: "string", default: "1,2" },
    concurrency: { type: "string", default: "256" },
    "latency-ms": { type: "string", default: "20" },
    "kill-worker-at": { type: "string" },
    batch: { type: "boolean", default: false },
    "batch-max": { type: "string" },
    cli: { type: "string", multiple: true },
  },
  strict: true,
});
const whole = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return n;
};
const items = Math.ceil(whole("calls", args.calls) / 3);
const calls = items * 3;
const killAt = args["kill-worker-at"] === undefined ? undefined : Number(args["kill-worker-at"]);
if (killAt !== undefined && !(killAt > 0 && killAt < 1))
  throw new Error("--kill-worker-at must be a fraction between 0 and 1, e.g. 0.6");
const workerCounts = (killAt !== undefined && args.workers === "1,2" ? "2" : args.workers)
  .split(",")
  .map((w) => whole("workers", w));
const batchMax =
  args["batch-max"] === undefined ? undefined : whole("batch-max", args["batch-max"]);
const concurrency = whole("concurrency", args.concurrency);
const latencyMs = whole("latency-ms", args["latency-ms"]);
const root = process.cwd();
const cliRoots = (args.cli ?? [root]).map((dir) => path.resolve(dir));

interface WorkerFigures {
  graded: number;
  cpuMs: number;
  peakRssMb: number;
}

interface Row {
  cli: string;
  workers: number;
  queueMs: number;
  wallMs: number;
  each: WorkerFigures[];
  billing: BillingFigures;
}

function run(args: string[], input: { dir: string; env: NodeJS.ProcessEnv; bin: string }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [input.bin, ...args], {
      cwd: input.dir,
      env: input.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A worker process under the preload; resolves once it is ready. Its stderr is counted, not kept. */
function startWorker(input: { dir: string; env: NodeJS.ProcessEnv; file: string; bin: string }) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF
        ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF]
        : []),
      // Node flags for the workers only, e.g. "--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR".
      ...(process.env.BENCH_WORKER_FLAGS?.split(" ").filter(Boolean) ?? []),
      ...["--import", path.join(input.dir, "preload.mjs"), input.bin],
      ...["worker", "--concurrency", String(concurrency)],
    ],
    {
      cwd: input.dir,
      env: { ...input.env, BENCH_FILE: input.file },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let graded = 0;
  let head = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      if (head.length < 4000) head += text;
      if (head.includes("Worker ready")) resolve();
      for (let at = text.indexOf(": passed "); at !== -1; at = text.indexOf(": passed ", at + 1))
        graded++;
      for (let at = text.indexOf(": failed "); at !== -1; at = text.indexOf(": failed ", at + 1))
        graded++;
    });
    void exited.then((code) => reject(new Error(`a worker exited (${code}): ${head}`)));
  });
  return {
    ready,
    pid: child.pid!,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
      return { graded, cpuMs: 0, peakRssMb: 0 };
    },
    async stop(): Promise<WorkerFigures> {
      child.kill("SIGTERM");
      await exited;
      const figures = JSON.parse(await readFile(input.file, "utf8")) as WorkerFigures;
      return { ...figures, graded };
    },
  };
}

async function oneRow(input: {
  cli: string;
  /** The row's own suite file: its requests (and custom_ids) are not the other rows'. */
  suite: string;
  workers: number;
  dir: string;
  standIn: StandIn;
  pgBin: string;
}) {
  const bin = path.join(input.cli, "bin/rubric-studio.mjs");
  const server = await startThrowawayPostgres(input.pgBin);
  try {
    const env = {
      ...cliEnv(input.standIn.url),
      DATABASE_URL: server.url,
      ...(killAt !== undefined ? { RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS: "10" } : {}),
      ...(batchMax !== undefined ? { RUBRIC_STUDIO_BATCH_MAX_REQUESTS: String(batchMax) } : {}),
    };
    const before = await input.standIn.stats();
    // Migrated once, before the workers start.
    const migrated = await run(["report", "latest"], { dir: input.dir, env, bin });
    if (!/no stored run yet/.test(migrated.stderr)) throw new Error(migrated.stderr);
    const workers = Array.from({ length: input.workers }, (_, i) =>
      startWorker({ dir: input.dir, env, bin, file: path.join(input.dir, `worker-${i}.json`) }),
    );
    await Promise.all(workers.map((w) => w.ready));
    const started = performance.now();
    const queued = await run(
      [
        "eval",
        "--config",
        input.suite,
        "--queue",
        "--detach",
        "--concurrency",
        String(concurrency),
        ...(args.batch ? ["--batch", "--poll-interval", "1"] : []),
      ],
      { dir: input.dir, env, bin },
    );
    if (queued.code !== 0) throw new Error(queued.stderr);
    const queueMs = performance.now() - started;
    console.error(queued.stderr.trim());
    const runId = queued.stdout.trim();
    let kill: KillFigures | undefined;
    let killed: WorkerFigures | undefined;
    if (killAt !== undefined) {
      const now = await untilBilled({
        standIn: input.standIn,
        before,
        target: Math.ceil(killAt * calls),
      });
      const victim = workers.shift()!;
      killed = await victim.kill();
      const killedAt = performance.now();
      // Its sockets close with it: what it had sent and not had answered is abandoned.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const afterKill = await input.standIn.stats();
      const claimed = await pendingClaims(server.url, victim.pid);
      const replacement = startWorker({
        dir: input.dir,
        env,
        bin,
        file: path.join(input.dir, `worker-${input.workers}.json`),
      });
      workers.push(replacement);
      await replacement.ready;
      kill = {
        answeredAtKill: billedSince(before, now),
        inFlight: afterKill.abandoned - before.abandoned,
        inFlightBefore: now.inFlight,
        claimed,
        afterKillMs: 0,
      };
      const status = await waitForRun(server.url, runId);
      kill.afterKillMs = performance.now() - killedAt;
      if (status !== "completed") throw new Error(`the run ended ${status}`);
    }
    const status = await waitForRun(server.url, runId);
    const wallMs = performance.now() - started;
    if (status !== "completed") throw new Error(`the run ended ${status}`);
    const each = await Promise.all(workers.map((w) => w.stop()));
    if (killed) each.unshift(killed);
    const billing = billingFigures({
      before,
      after: await input.standIn.stats(),
      planned: calls,
      resultsPlanned: items,
      stored: await storedResults(server.url, runId),
      ...(kill ? { kill } : {}),
    });
    return { cli: input.cli, workers: input.workers, queueMs, wallMs, each, billing } satisfies Row;
  } finally {
    server.stop();
  }
}

function render(rows: Row[]): string {
  const head = [
    "CLI",
    "workers",
    "queued in",
    "wall",
    "calls/s",
    "worker: results, CPU/call, peak RSS",
  ];
  const body = rows.map((r) => [
    r.cli,
    String(r.workers),
    `${(r.queueMs / 1000).toFixed(1)} s`,
    `${(r.wallMs / 1000).toFixed(1)} s`,
    (calls / (r.wallMs / 1000)).toFixed(0),
    r.each
      .map((w) =>
        w.peakRssMb === 0
          ? `killed after ${w.graded.toLocaleString("en-US")} results`
          : `${w.graded.toLocaleString("en-US")} results, ${(w.cpuMs / Math.max(1, w.graded * 3)).toFixed(3)} ms, ${w.peakRssMb.toFixed(0)} MB`,
      )
      .join(" | "),
  ]);
  const table = [head, ...body];
  const widths = head.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  return table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")).join("\n");
}

async function main() {
  const pgBin = findPostgresBin();
  if (!pgBin) throw new Error("no Postgres server binaries under /usr/lib/postgresql");
  const built = spawnSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (built.status !== 0) throw new Error("scripts/build-cli.mjs failed");
  const standIn = await startStandIn(latencyMs);
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-bench-queue-"));
  const rows: Row[] = [];
  try {
    await writeFile(path.join(dir, "preload.mjs"), PRELOAD);
    await writeDataset(path.join(dir, "items.jsonl"), items);
    for (const workers of workerCounts)
      for (const cli of cliRoots) {
        console.error(
          `${calls.toLocaleString("en-US")} judge calls, ${workers} worker(s), ${cli}...`,
        );
        // Each row's rubric is its own (as bench:scale's runs): the stand-in bills a batched
        // custom_id once, and a row whose requests an earlier row made would never reach its kill.
        const suite = `suite-${rows.length + 1}.yaml`;
        await writeFile(
          path.join(dir, suite),
          suiteText({ criteria: 3, jury: 1 }, "items.jsonl", rows.length + 1),
        );
        rows.push(await oneRow({ cli, suite, workers, dir, standIn, pgBin }));
        console.error(render(rows.slice(-1)));
      }
  } finally {
    standIn.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `bench:queue · ${calls.toLocaleString("en-US")} judge calls (${items.toLocaleString("en-US")} items × 3 criteria) · concurrency ${concurrency} per worker · stand-in latency ${latencyMs} ms${args.batch ? ` · --batch (split at ${(batchMax ?? 100_000).toLocaleString("en-US")} requests)` : ""}${killAt !== undefined ? ` · kill -9 of a worker at ${killAt * 100}%` : ""} · Node ${process.version}`,
  );
  console.log(render(rows));
  console.log(
    renderBilling(rows.map((r) => ({ workers: `${r.workers} (${r.cli})`, billing: r.billing }))),
  );
}

await main();
