import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cliEnv } from "./cli-process";
import {
  findPostgresBin,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "./throwaway-postgres";
import { killAndResume, renderKillRows, type KillRow } from "./kill-resume";
import { makePgliteFolder } from "./made-folder";
import { PRELOAD, startStandIn, suiteText, writeDataset } from "./stand-in-process";

// `npm run bench:scale` (issue 20): the whole `rubric-studio eval` process on a
// generated JSON Lines dataset against the Messages API stand-in (in its own
// process), at 10^3, 10^4 and 10^5 judge calls (10^6 with --max 1000000),
// reports streamed to a file (ndjson). Per size: wall time, its floor (the
// larger of the latency floor, ceil(calls / concurrency) × latency, and the CPU
// floor, the process's own CPU time), wall ÷ floor, CPU per judge call and the
// process's peak RSS, read by a preload as the process exits.
//
//   --max N          the largest size (default 100000)
//   --calls LIST     these sizes instead (e.g. 3000,30000)
//   --concurrency N  (default 256)
//   --latency-ms N   the stand-in's reply time (default 20)
//   --cli DIR        (repeatable) time that checkout's CLI instead of this one's, each in turn
//   --store          `eval --store`: every result written to the run history as it finishes, on
//                    PGlite (a new data folder per run, its server in the CLI's process, so its
//                    memory counts in the peak RSS); adds results written per second
//   --database-url U the same on a Postgres server (implies --store; `throwaway` starts a
//                    Postgres 15 of its own, bench/throwaway-postgres.ts); each run's suite text
//                    is new, so the judge cache of an earlier run answers nothing
//   --made-folder    (with --store on PGlite) make each run's data folder first, in a process of
//                    its own (bench/made-folder.ts): the peak RSS is then the run's, not initdb's
//   --kill-at F      (with --store) per size, `kill -9` the eval once the stand-in has answered
//                    that share (0..1) of its calls, then `rubric-studio resume RUN_ID`; prints
//                    what the kill cost instead of the table above (bench/kill-resume.ts)
//
// Every size is items × 3 criteria (10^6 calls: 333,334 items), as a file run
// from the CLI may plan (10,000,000 cells); a checkout given with --cli whose
// limits refuse a size prints it as refused, with its message.

const { values: args } = parseArgs({
  options: {
    max: { type: "string", default: "100000" },
    calls: { type: "string" },
    concurrency: { type: "string", default: "256" },
    "latency-ms": { type: "string", default: "20" },
    cli: { type: "string", multiple: true },
    store: { type: "boolean", default: false },
    "database-url": { type: "string" },
    "kill-at": { type: "string" },
    "made-folder": { type: "boolean", default: false },
  },
  strict: true,
});
const whole = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return n;
};
const max = whole("max", args.max);
const concurrency = whole("concurrency", args.concurrency);
const latencyMs = whole("latency-ms", args["latency-ms"]);
const cliRoots = (args.cli ?? [process.cwd()]).map((dir) => path.resolve(dir));
const sizes = args.calls
  ? args.calls.split(",").map((n) => whole("calls", n))
  : [1_000, 10_000, 100_000, 1_000_000].filter((n) => n <= max);
const killAt = args["kill-at"] === undefined ? undefined : Number(args["kill-at"]);
if (killAt !== undefined && !(killAt > 0 && killAt < 1))
  throw new Error("--kill-at must be a fraction between 0 and 1, e.g. 0.6");
const store = args.store || args["database-url"] !== undefined || killAt !== undefined;
let runNumber = 0;

/** items × criteria × jurors ≈ calls. */
function shapeOf(calls: number) {
  return { items: Math.ceil(calls / 3), criteria: 3, jury: 1 };
}

interface Row {
  calls: number;
  /** Results (cells) of the run: what --store writes. */
  results: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  refused?: string;
}

/** The store's environment and the eval's arguments of one run (a new suite file, a new PGlite folder). */
async function runSetup(input: {
  dir: string;
  url: string;
  calls: number;
  databaseUrl: string | undefined;
}) {
  const suite = `suite-${++runNumber}.yaml`;
  await writeFile(
    path.join(input.dir, suite),
    suiteText(shapeOf(input.calls), "items.jsonl", runNumber),
  );
  const dataDir = path.join(input.dir, `pglite-${runNumber}`);
  const history = !store
    ? {}
    : input.databaseUrl
      ? { DATABASE_URL: input.databaseUrl }
      : { RUBRIC_STUDIO_DATA_DIR: dataDir };
  if (store && !input.databaseUrl && args["made-folder"]) makePgliteFolder(dataDir);
  const cliArgs = [
    ...["eval", "--config", suite, "--concurrency", String(concurrency)],
    ...["--reporter", "ndjson", "--output", "report.ndjson"],
    ...(store ? ["--store"] : []),
  ];
  return { env: { ...cliEnv(input.url), ...history }, cliArgs };
}

async function runCli(input: {
  bin: string;
  dir: string;
  url: string;
  calls: number;
  results: number;
  /** --store: the Postgres URL, or undefined for PGlite. */
  databaseUrl: string | undefined;
}) {
  const benchFile = path.join(input.dir, "figures.json");
  const setup = await runSetup(input);
  const env = { ...setup.env, BENCH_FILE: benchFile };
  const cliArgs = setup.cliArgs;
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--import", path.join(input.dir, "preload.mjs"), input.bin, ...cliArgs],
        { cwd: input.dir, env, stdio: ["ignore", "ignore", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.once("error", reject);
      child.once("close", (exitCode) => resolve({ code: exitCode, stderr: err }));
    },
  );
  const wallMs = performance.now() - started;
  if (code === 2) {
    const message = stderr.split("\n").find((l) => l.includes("error")) ?? stderr.slice(0, 200);
    return {
      calls: input.calls,
      results: input.results,
      wallMs,
      cpuMs: 0,
      peakRssMb: 0,
      refused: message,
    } as Row;
  }
  if (code !== 0) throw new Error(`eval exited ${code}\n${stderr.slice(-2000)}`);
  const figures = JSON.parse(await readFile(benchFile, "utf8")) as {
    cpuMs: number;
    peakRssMb: number;
  };
  if (store && input.databaseUrl === undefined)
    await rm(path.join(input.dir, `pglite-${runNumber}`), { recursive: true, force: true });
  return { calls: input.calls, results: input.results, wallMs, ...figures } as Row;
}

function render(root: string, rows: Row[]): string {
  const head = [
    "judge calls",
    "wall",
    "floor",
    "wall ÷ floor",
    "CPU/call",
    "peak RSS",
    ...(store ? ["results/s written"] : []),
  ];
  const body = rows.map((r) => {
    if (r.refused) return [r.calls.toLocaleString("en-US"), `refused: ${r.refused}`];
    const latencyFloor = Math.ceil(r.calls / concurrency) * latencyMs;
    const floor = Math.max(latencyFloor, r.cpuMs);
    return [
      r.calls.toLocaleString("en-US"),
      `${(r.wallMs / 1000).toFixed(2)} s`,
      `${(floor / 1000).toFixed(2)} s (${floor === latencyFloor ? "latency" : "CPU"})`,
      (r.wallMs / floor).toFixed(2),
      `${(r.cpuMs / r.calls).toFixed(3)} ms`,
      `${r.peakRssMb.toFixed(0)} MB`,
      ...(store ? [`${Math.round(r.results / (r.wallMs / 1000)).toLocaleString("en-US")}`] : []),
    ];
  });
  const table = [head, ...body];
  const widths = head.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  const lines = table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
  return [`${root}`, ...lines].join("\n");
}

async function main() {
  for (const root of cliRoots) {
    const built = spawnSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], {
      cwd: root,
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error(`${root}: scripts/build-cli.mjs failed`);
  }
  let throwaway: ThrowawayPostgres | undefined;
  let databaseUrl = args["database-url"];
  if (databaseUrl === "throwaway") {
    const bin = findPostgresBin();
    if (!bin) throw new Error("--database-url throwaway: no Postgres server binaries installed");
    throwaway = await startThrowawayPostgres(bin);
    databaseUrl = throwaway.url;
  }
  const standIn = await startStandIn(latencyMs);
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-bench-scale-"));
  const rows = new Map<string, Row[]>(cliRoots.map((root) => [root, []]));
  const killRows: KillRow[] = [];
  try {
    await writeFile(path.join(dir, "preload.mjs"), PRELOAD);
    for (const calls of sizes) {
      const shape = shapeOf(calls);
      await writeDataset(path.join(dir, "items.jsonl"), shape.items);
      const planned = shape.items * shape.criteria * shape.jury;
      console.error(
        `${planned.toLocaleString("en-US")} judge calls: ${shape.items} items × ${shape.criteria} criteria × ${shape.jury} juror(s)`,
      );
      if (killAt !== undefined) {
        const setup = await runSetup({ dir, url: standIn.url, calls: planned, databaseUrl });
        const bin = path.join(cliRoots[0]!, "bin/rubric-studio.mjs");
        killRows.push(
          await killAndResume({
            call: { bin, dir, env: setup.env },
            standIn,
            evalArgs: setup.cliArgs,
            planned,
            results: shape.items,
            killAt,
            benchFile: path.join(dir, "figures.json"),
            databaseUrl,
          }),
        );
        console.error(renderKillRows(killRows.slice(-1)));
        continue;
      }
      // Each checkout in turn on the same dataset, so load on the machine lands on both.
      for (const root of cliRoots) {
        const bin = path.join(root, "bin/rubric-studio.mjs");
        rows.get(root)!.push(
          await runCli({
            bin,
            dir,
            url: standIn.url,
            calls: planned,
            results: shape.items,
            databaseUrl,
          }),
        );
      }
    }
  } finally {
    standIn.stop();
    throwaway?.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `bench:scale · concurrency ${concurrency} · stand-in latency ${latencyMs} ms · ndjson to a file${store ? ` · --store on ${databaseUrl ? (throwaway?.version ?? "Postgres (--database-url)") : args["made-folder"] ? "PGlite (each data folder made first)" : "PGlite"}` : ""} · Node ${process.version}`,
  );
  if (killAt !== undefined) {
    console.log(`kill -9 once ${killAt * 100}% of the calls are answered, then resume RUN_ID`);
    console.log(renderKillRows(killRows));
    return;
  }
  for (const [root, list] of rows) console.log(`\n${render(root, list)}`);
}

await main();
