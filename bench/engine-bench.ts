import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { loadSuite } from "../lib/config/load-suite";
import type { SuiteConfig } from "../lib/config/types";
import type { JudgePort } from "../lib/engine/judge-port";
import type { Report } from "../lib/engine/report";
import { runSuite } from "../lib/engine/run-suite";
import { createAnthropicJudge } from "../lib/judge/anthropic-judge";
import { priceOf } from "../lib/judge/pricing";

// `npm run bench:engine`: how close the engine comes to the ideal wall time of
// a run, and what it costs this process per judge call. 600 judge calls (100
// evals × 6 criteria, loaded from YAML like any suite) go through the real
// engine and the real Anthropic SDK over HTTP to the Messages API stand-in,
// which answers after 100 ms and runs in a child process so that its CPU is
// not counted here. Targets are printed beside the figures; the exit code is
// non-zero only when a call was not graded.

const LATENCY_MS = 100;
const EVALS = 100;
const CRITERIA = 6;
const CALLS = EVALS * CRITERIA;
const MODEL = "claude-haiku-4-5";
const TARGET = { ratio: { 4: 1.05, 16: 1.05, 64: 1.1 } as Record<number, number>, cpuMsPerCall: 0.5, peakRssMb: 150, ratioUnder429: 2 };
const STAND_IN = fileURLToPath(new URL("../test/support/fake-messages-api-main.ts", import.meta.url));

function suiteText(evals: number): string {
  const lines = [`judge: { model: ${MODEL} }`, "evals:"];
  for (let e = 1; e <= evals; e++) {
    lines.push(
      `  - name: eval ${e}`,
      `    prompt: "What did invoice ${e} total?"`,
      `    response: "Invoice ${e} totaled $${(e * 7.5).toFixed(2)}, tax included, paid on day ${e % 28} of the month."`,
      "    rubric:",
      "      threshold: 0.7",
      "      criteria:",
    );
    for (let c = 1; c <= CRITERIA; c++) lines.push(`        - { name: criterion ${c}, description: "Checks aspect ${c} of the answer: it is stated plainly and correctly." }`);
  }
  return `${lines.join("\n")}\n`;
}

function loadBenchSuite(evals: number): SuiteConfig {
  const loaded = loadSuite({ text: suiteText(evals), file: `bench-${evals}.yaml` });
  if (!loaded.ok) throw new Error(`the generated suite does not load: ${JSON.stringify(loaded.issues.slice(0, 3))}`);
  return loaded.value;
}

interface StandIn {
  url: string;
  stats(): Promise<{ requests: number; rateLimited: number }>;
  stop(): void;
}

/** The stand-in in its own process (fake-messages-api-main.ts), so its CPU is not this process's. */
async function startStandIn(args: string[]): Promise<StandIn> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", STAND_IN, "--latency-ms", String(LATENCY_MS), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting: ((line: string) => boolean)[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const index = waiting.findIndex((take) => take(line));
    if (index >= 0) waiting.splice(index, 1);
  });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the stand-in exited (${code}) before printing ${prefix}`)));
      waiting.push((line) => (line.startsWith(`${prefix} `) ? (resolve(line.slice(prefix.length + 1)), true) : false));
    });
  const url = await next("READY");
  return {
    url,
    async stats() {
      const reply = next("STATS");
      child.stdin!.write("stats\n");
      return JSON.parse(await reply) as { requests: number; rateLimited: number };
    },
    stop() {
      child.kill("SIGTERM");
    },
  };
}

interface Measured {
  wallMs: number;
  cpuMsPerCall: number;
  peakRssMb: number;
  graded: number;
  attempts: number;
  report: Report;
}

/** Judge calls that came back with a verdict: every criterion of every result that was graded. */
function gradedCalls(report: Report): number {
  return report.results.reduce((n, r) => n + r.criteria.filter((c) => c.status === "graded").length, 0);
}

// A full collection between runs (not timed), so that no run pays for or
// carries the previous run's garbage: the CLI grades one suite per process.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * Resets the kernel's high-water mark of this process's RSS (Linux: "5" in
 * /proc/self/clear_refs), so that resourceUsage().maxRSS afterwards is this
 * run's own peak. Reading maxRSS is free, where sampling
 * process.memoryUsage.rss() every 10 ms reads /proc each time and cost
 * ~0.03-0.1 ms a sample here: a visible share of a 0.5 ms-per-call budget.
 * Returns false where the reset is not available (the figure is then the
 * peak of the whole bench so far).
 */
function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

let peakIsPerRun = true;

async function measure(input: { suite: SuiteConfig; judge: JudgePort; concurrency: number }): Promise<Measured> {
  const { suite, judge, concurrency } = input;
  collectGarbage();
  peakIsPerRun &&= resetPeakRss();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const report = await runSuite({ suite, defaultModel: MODEL, concurrency, toolVersion: "bench" }, { judge, now: Date.now, priceOf });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const calls = report.summary.judgeCalls;
  if (process.env.BENCH_VERBOSE) {
    const mem = process.memoryUsage();
    console.log(`  [c=${concurrency}] user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms; rss ${(mem.rss / 2 ** 20).toFixed(0)} MB, heap ${(mem.heapUsed / 2 ** 20).toFixed(0)}/${(mem.heapTotal / 2 ** 20).toFixed(0)} MB`);
  }
  return {
    wallMs,
    cpuMsPerCall: (cpu.user + cpu.system) / 1000 / Math.max(1, calls),
    peakRssMb,
    graded: gradedCalls(report),
    attempts: report.results.reduce((n, r) => n + r.calls.reduce((m, c) => m + c.attempts, 0), 0),
    report,
  };
}

const idealMs = (concurrency: number) => Math.ceil(CALLS / concurrency) * LATENCY_MS;
const mark = (ok: boolean) => (ok ? "✓" : "✗ MISSED");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function row(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
}

async function main(): Promise<number> {
  const [plain, limited] = await Promise.all([startStandIn([]), startStandIn(["--rate-429", "0.1", "--retry-after", "1"])]);
  try {
    const suite = loadBenchSuite(EVALS);
    const judge = createAnthropicJudge({ apiKey: "sk-ant-bench", baseURL: plain.url });
    const limitedJudge = createAnthropicJudge({ apiKey: "sk-ant-bench", baseURL: limited.url });

    // Warm-up, about a second: V8 needs a few hundred calls through the SDK and
    // node:http before their code is optimised (the first 200 calls cost ~1.6×
    // what later ones do), and the keep-alive connections get opened here too.
    await measure({ suite, judge, concurrency: 64 });
    await measure({ suite: loadBenchSuite(8), judge: limitedJudge, concurrency: 16 });

    collectGarbage();
    const restingRssMb = process.memoryUsage.rss() / 2 ** 20;
    console.log(
      `Engine benchmark: ${CALLS} judge calls (${EVALS} evals × ${CRITERIA} criteria) through runSuite + createAnthropicJudge,`,
      `\nagainst the Messages API stand-in in a child process answering after ${LATENCY_MS} ms.`,
      `\nnode ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(2)} at the start;`,
      `RSS at rest after the warm-up: ${restingRssMb.toFixed(0)} MB (Node, the tsx loader, the SDK, zod, yaml, the engine).\n`,
    );
    const widths = [16, 9, 9, 16, 18, 17, 10];
    console.log(row(["run", "wall", "ideal", "ratio (target)", "CPU/call (≤0.50ms)", "peak RSS (≤150MB)", "graded"], widths));

    let allGraded = true;
    for (const concurrency of [4, 16, 64]) {
      const before = await plain.stats();
      const m = await measure({ suite, judge, concurrency });
      const after = await plain.stats();
      const ideal = idealMs(concurrency);
      const ratio = m.wallMs / ideal;
      const target = TARGET.ratio[concurrency]!;
      allGraded &&= m.graded === CALLS;
      console.log(
        row(
          [
            `concurrency ${concurrency}`,
            seconds(m.wallMs),
            seconds(ideal),
            `${ratio.toFixed(3)} ≤${target.toFixed(2)} ${mark(ratio <= target)}`,
            `${m.cpuMsPerCall.toFixed(3)} ms ${mark(m.cpuMsPerCall <= TARGET.cpuMsPerCall)}`,
            `${m.peakRssMb.toFixed(0)} MB ${mark(m.peakRssMb <= TARGET.peakRssMb)}`,
            `${m.graded}/${CALLS}${after.requests - before.requests === CALLS ? "" : ` (${after.requests - before.requests} requests)`}`,
          ],
          widths,
        ),
      );
    }

    const before = await limited.stats();
    const m = await measure({ suite, judge: limitedJudge, concurrency: 16 });
    const after = await limited.stats();
    const ideal = idealMs(16);
    const ratio = m.wallMs / ideal;
    const sent429 = after.rateLimited - before.rateLimited;
    allGraded &&= m.graded === CALLS;
    console.log(
      row(
        [
          "c 16, 10% 429",
          seconds(m.wallMs),
          seconds(ideal),
          `${ratio.toFixed(3)} ≤${TARGET.ratioUnder429.toFixed(2)} ${mark(ratio <= TARGET.ratioUnder429 && m.graded === CALLS)}`,
          `${m.cpuMsPerCall.toFixed(3)} ms ${mark(m.cpuMsPerCall <= TARGET.cpuMsPerCall)}`,
          `${m.peakRssMb.toFixed(0)} MB ${mark(m.peakRssMb <= TARGET.peakRssMb)}`,
          `${m.graded}/${CALLS}`,
        ],
        widths,
      ),
    );
    console.log(
      `\nUnder 429s: ${sent429} answered 429 (retry-after: 1) out of ${after.requests - before.requests} requests; the client made ${m.attempts} attempts for ${m.report.summary.judgeCalls} calls (${m.attempts - m.report.summary.judgeCalls} retries).`,
    );
    console.log(
      "Ideal = ceil(calls / concurrency) × latency; ratio = wall / ideal; CPU/call = this process's user+system CPU during the run / calls;",
      `\npeak RSS = ${peakIsPerRun ? "the run's own peak (high-water mark reset before it, after a full GC)" : "the peak of the bench so far (no per-run reset on this OS)"}.`,
    );
    if (!allGraded) console.error("\nFAILED: some judge calls were not graded.");
    return allGraded ? 0 : 1;
  } finally {
    plain.stop();
    limited.stop();
  }
}

process.exitCode = await main();
