import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pendingClaims } from "./queue-kill";
import type { StandIn } from "./stand-in-process";

// `npm run bench:scale -- --store --kill-at 0.6` (issue 20): one `eval --store`
// killed with SIGKILL once the stand-in has answered that share of the run's
// judge calls, then `rubric-studio resume RUN_ID` to the end. What it measures
// is what the kill cost: the calls the stand-in answered in all against those
// planned (an answer is a billed call; one answered twice was paid twice), the
// calls in flight at the kill (received and not answered: the stand-in counts
// the requests whose client left before the answer), the results stored at the
// kill and at the end (`report RUN_ID`), and the resume's wall, CPU and peak RSS.

export interface KillRow {
  planned: number;
  /** Results (cells) of the run. */
  results: number;
  /** Calls the stand-in had answered when the kill was sent. */
  answeredAtKill: number;
  /** Calls answered (billed) in all, by the killed eval and the resume. */
  answered: number;
  /** Calls received and left unanswered by the killed process. */
  inFlight: number;
  /** The stand-in's calls in flight at its last count before the kill. */
  inFlightBefore: number;
  /** With Postgres: the calls it had claimed in the ledger and not finished (its own in flight). */
  claimed?: number;
  storedAtKill: number;
  storedAtEnd: number;
  resume: { wallMs: number; cpuMs: number; peakRssMb: number };
}

export interface CliCall {
  bin: string;
  dir: string;
  env: NodeJS.ProcessEnv;
}

function spawnCli(call: CliCall, args: string[]) {
  const child = spawn(
    process.execPath,
    ["--import", path.join(call.dir, "preload.mjs"), call.bin, ...args],
    { cwd: call.dir, env: call.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  return { child, closed, stderr: () => stderr, stdout: () => stdout };
}

/** The results a stored run holds, as `report RUN_ID` says of a run still running ("N of M results so far"), or counts in its ndjson. */
async function storedResults(call: CliCall, runId: string): Promise<number> {
  const report = spawnCli(call, ["report", runId, "--reporter", "ndjson"]);
  await report.closed;
  const sofar = /: ([\d,]+) of [\d,]+ results? so far/.exec(report.stderr());
  if (sofar) return Number(sofar[1]!.replaceAll(",", ""));
  return report
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith('{"type":"result"')).length;
}

export async function killAndResume(input: {
  call: CliCall;
  standIn: StandIn;
  evalArgs: string[];
  planned: number;
  results: number;
  killAt: number;
  /** The preload's figures file of the resume. */
  benchFile: string;
  /** The Postgres store's URL (undefined: PGlite, whose ledger the bench cannot read beside it). */
  databaseUrl: string | undefined;
}): Promise<KillRow> {
  const { call, standIn } = input;
  const before = await standIn.stats();
  const run = spawnCli(call, input.evalArgs);
  let answeredAtKill = -1;
  let inFlightBefore = 0;
  const target = Math.ceil(input.killAt * input.planned);
  for (;;) {
    const exited = await Promise.race([
      run.closed.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20)),
    ]);
    if (exited) throw new Error(`eval ended before the kill:\n${run.stderr().slice(-2000)}`);
    const now = await standIn.stats();
    if (now.answered - before.answered >= target) {
      run.child.kill("SIGKILL");
      answeredAtKill = now.answered - before.answered;
      inFlightBefore = now.inFlight;
      break;
    }
  }
  await run.closed;
  const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr())?.[1];
  if (!runId) throw new Error(`no run id in the eval's stderr:\n${run.stderr().slice(-2000)}`);
  // The killed process's sockets close with it: what it had sent and not had answered is abandoned.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const afterKill = await standIn.stats();
  const storedAtKill = await storedResults(call, runId);
  const claimed = input.databaseUrl
    ? await pendingClaims(input.databaseUrl, run.child.pid!)
    : undefined;

  const started = performance.now();
  const resume = spawnCli({ ...call, env: { ...call.env, BENCH_FILE: input.benchFile } }, [
    "resume",
    runId,
    "--reporter",
    "ndjson",
    "--output",
    "resume.ndjson",
  ]);
  const code = await resume.closed;
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`resume exited ${code}\n${resume.stderr().slice(-2000)}`);
  const figures = JSON.parse(await readFile(input.benchFile, "utf8")) as {
    cpuMs: number;
    peakRssMb: number;
  };
  const after = await standIn.stats();
  return {
    planned: input.planned,
    results: input.results,
    answeredAtKill,
    answered: after.answered - before.answered,
    inFlight: afterKill.abandoned - before.abandoned,
    inFlightBefore,
    ...(claimed !== undefined ? { claimed } : {}),
    storedAtKill,
    storedAtEnd: await storedResults(call, runId),
    resume: { wallMs, ...figures },
  };
}

/** ✓ when what was paid twice is at most what was in flight; PGlite's ledger cannot be read beside it. */
function verdict(input: { twice: number; inFlight: number; row: KillRow }): string {
  if (input.twice <= input.inFlight && input.row.answered >= input.row.planned)
    return "✓ (≤ in flight)";
  if (input.row.claimed === undefined)
    return "? (beyond the stand-in's unanswered; PGlite's claims unread)";
  return "✗ beyond in flight";
}

export function renderKillRows(rows: KillRow[]): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const head = [
    "judge calls planned",
    "answered at kill",
    "in flight at kill: claimed · unanswered (last count)",
    "answered in all",
    "paid twice",
    "results stored at kill → end",
    "resume wall",
    "resume CPU",
    "resume peak RSS",
  ];
  const body = rows.map((r) => {
    // A call in flight at the kill is made again by the resume: the real API bills it twice.
    const twice = r.answered - r.planned + r.inFlight;
    const inFlight = Math.max(r.inFlight, r.claimed ?? 0);
    return [
      n(r.planned),
      n(r.answeredAtKill),
      `${r.claimed === undefined ? "n/a" : n(r.claimed)} · ${n(r.inFlight)} (${n(r.inFlightBefore)})`,
      n(r.answered),
      `${n(twice)} ${verdict({ twice, inFlight, row: r })}`,
      `${n(r.storedAtKill)} → ${n(r.storedAtEnd)} of ${n(r.results)} ${r.storedAtEnd === r.results ? "✓" : "✗"}`,
      `${(r.resume.wallMs / 1000).toFixed(2)} s`,
      `${(r.resume.cpuMs / 1000).toFixed(2)} s`,
      `${r.resume.peakRssMb.toFixed(0)} MB`,
    ];
  });
  const table = [head, ...body];
  const widths = head.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  return table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")).join("\n");
}
