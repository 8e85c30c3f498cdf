import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { loadSuite } from "../lib/config/load-suite";
import type { SuiteConfig } from "../lib/config/types";
import type { JudgePort } from "../lib/engine/ports/judge-port";
import type { Report } from "../lib/engine/results/report";
import { runSuite } from "../lib/engine/run-suite";
import { createAnthropicJudge } from "../lib/judge/anthropic-judge";
import { priceOf } from "../lib/judge/pricing";
import { CRITERIA, MODEL, measureWholeProcess, renderProcessTable, suiteText } from "./cli-process";

// `npm run bench:engine`: how close the engine comes to the ideal wall time of
// a run, and what it costs this process per judge call. 600 judge calls (100
// evals × 6 criteria, loaded from YAML like any suite) go through the real
// engine and the real Anthropic SDK over HTTP to the Messages API stand-in,
// which answers after 100 ms and runs in a child process so that its CPU is
// not counted here. Then the same suite through the whole CLI process, one
// process per run (cli-process.ts), and `validate` of a small suite for the
// start-up. Targets are printed beside the figures; the exit code is non-zero
// only when a call was not graded.
//   --repeats N  processes per whole-process figure, which is their median (default 3)
//   --cli DIR    time that checkout's CLI in the whole-process rows instead of this one's;
//                given more than once, each in turn (e.g. main's and this one's: before and after)

const LATENCY_MS = 100;
const EVALS = 100;
const CALLS = EVALS * CRITERIA;
const TARGET = {
  ratio: { 4: 1.05, 16: 1.05, 64: 1.1 } as Record<number, number>,
  cpuMsPerCall: 0.5,
  peakRssMb: 150,
  ratioUnder429: 2,
  /** The whole `eval` process: spawn to exit. */
  processRatio: { 4: 1.1, 16: 1.1, 64: 1.25 } as Record<number, number>,
  validateMs: 400,
};
const STAND_IN = fileURLToPath(
  new URL("../test/support/fake-messages-api-main.ts", import.meta.url),
);

const { values: args } = parseArgs({
  options: { repeats: { type: "string", default: "3" }, cli: { type: "string", multiple: true } },
  strict: true,
});
const repeats = Number(args.repeats);
if (!Number.isInteger(repeats) || repeats < 1)
  throw new Error(`--repeats must be a whole number of at least 1, got ${args.repeats}`);
// npm runs scripts at the package root: its CLI, unless --cli names other checkouts.
const cliRoots = (args.cli ?? [process.cwd()]).map((dir) => path.resolve(dir));

function loadBenchSuite(evals: number): SuiteConfig {
  const loaded = loadSuite({ text: suiteText(evals), file: `bench-${evals}.yaml` });
  if (!loaded.ok)
    throw new Error(
      `the generated suite does not load: ${JSON.stringify(loaded.issues.slice(0, 3))}`,
    );
  return loaded.value;
}

interface StandIn {
  url: string;
  stats(): Promise<{ requests: number; rateLimited: number }>;
  stop(): void;
}

/** The stand-in in its own process (fake-messages-api-main.ts), so its CPU is not this process's. */
async function startStandIn(args: string[]): Promise<StandIn> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", STAND_IN, "--latency-ms", String(LATENCY_MS), ...args],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const waiting: {
    prefix: string;
    resolve: (rest: string) => void;
    reject: (error: Error) => void;
  }[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const index = waiting.findIndex((w) => line.startsWith(`${w.prefix} `));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(line.slice(line.indexOf(" ") + 1));
  });
  child.once("exit", (code) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`the stand-in exited (${code}) before printing ${w.prefix}`));
  });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => waiting.push({ prefix, resolve, reject }));
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
  return report.results.reduce(
    (n, r) => n + r.criteria.filter((c) => c.status === "graded").length,
    0,
  );
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

async function measure(input: {
  suite: SuiteConfig;
  judge: JudgePort;
  concurrency: number;
}): Promise<Measured> {
  const { suite, judge, concurrency } = input;
  collectGarbage();
  peakIsPerRun &&= resetPeakRss();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const report = await runSuite(
    { suite, defaultModel: MODEL, concurrency, toolVersion: "bench" },
    { judge, now: Date.now, priceOf },
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const calls = report.summary.judgeCalls;
  if (process.env.BENCH_VERBOSE) {
    const mem = process.memoryUsage();
    console.log(
      `  [c=${concurrency}] user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms; rss ${(mem.rss / 2 ** 20).toFixed(0)} MB, heap ${(mem.heapUsed / 2 ** 20).toFixed(0)}/${(mem.heapTotal / 2 ** 20).toFixed(0)} MB`,
    );
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

/**
 * The same number of POSTs with bare node:http (keep-alive, a body the size of
 * a judge request, JSON.parse of the reply), no SDK and no engine: what any
 * Node client pays per call on this machine, to read the CPU/call figures against.
 */
async function measureHttpFloor(input: {
  url: string;
  concurrency: number;
  body: string;
}): Promise<{ wallMs: number; cpuMsPerCall: number }> {
  const target = new URL("/v1/messages", input.url);
  const agent = new http.Agent({ keepAlive: true });
  const headers = {
    "content-type": "application/json",
    "x-api-key": "sk-ant-bench",
    "anthropic-version": "2023-06-01",
    "content-length": Buffer.byteLength(input.body),
  };
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(target, { method: "POST", headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve();
        });
      });
      request.on("error", reject);
      request.end(input.body);
    });
  const run = async (calls: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: input.concurrency }, async () => {
        while (next++ < calls) await post();
      }),
    );
  };
  await run(CALLS); // its own warm-up
  collectGarbage();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run(CALLS);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { wallMs, cpuMsPerCall: (cpu.user + cpu.system) / 1000 / CALLS };
}

const idealMs = (concurrency: number) => Math.ceil(CALLS / concurrency) * LATENCY_MS;

interface Row {
  run: string;
  concurrency: number;
  ratioTarget: number;
  m: Measured;
  /** Requests the stand-in received during the run, and how many it answered 429. */
  requests: number;
  rateLimited: number;
}

/** One line per run: each figure with its target and ✓ or ✗ beside it. */
function renderTable(rows: Row[]): string {
  const check = (ok: boolean) => (ok ? "✓" : "✗");
  const head = [
    "run",
    "wall",
    "ideal",
    "ratio",
    "target",
    "CPU/call",
    "target",
    "peak RSS",
    "target",
    "graded",
    "429s sent",
  ];
  const body = rows.map(({ run, concurrency, ratioTarget, m, rateLimited }) => {
    const ideal = idealMs(concurrency);
    const ratio = m.wallMs / ideal;
    return [
      run,
      `${(m.wallMs / 1000).toFixed(2)} s`,
      `${(ideal / 1000).toFixed(2)} s`,
      ratio.toFixed(3),
      `≤${ratioTarget.toFixed(2)} ${check(ratio <= ratioTarget)}`,
      `${m.cpuMsPerCall.toFixed(2)} ms`,
      `≤${TARGET.cpuMsPerCall.toFixed(2)} ${check(m.cpuMsPerCall <= TARGET.cpuMsPerCall)}`,
      `${m.peakRssMb.toFixed(0)} MB`,
      `≤${TARGET.peakRssMb} ${check(m.peakRssMb <= TARGET.peakRssMb)}`,
      `${m.graded}/${CALLS} ${check(m.graded === CALLS)}`,
      String(rateLimited),
    ];
  });
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((cells) => cells[i]!.length)));
  return [head, ...body]
    .map((cells) =>
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  "),
    )
    .join("\n");
}

async function main(): Promise<number> {
  const [plain, limited] = await Promise.all([
    startStandIn([]),
    startStandIn(["--rate-429", "0.1", "--retry-after", "1"]),
  ]);
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

    const rows: Row[] = [];
    const runOn = async (input: {
      standIn: StandIn;
      judge: JudgePort;
      run: string;
      concurrency: number;
      ratioTarget: number;
    }) => {
      const before = await input.standIn.stats();
      const m = await measure({ suite, judge: input.judge, concurrency: input.concurrency });
      const after = await input.standIn.stats();
      rows.push({
        ...input,
        m,
        requests: after.requests - before.requests,
        rateLimited: after.rateLimited - before.rateLimited,
      });
    };
    for (const concurrency of [4, 16, 64]) {
      await runOn({
        standIn: plain,
        judge,
        run: `concurrency ${concurrency}`,
        concurrency,
        ratioTarget: TARGET.ratio[concurrency]!,
      });
    }
    await runOn({
      standIn: limited,
      judge: limitedJudge,
      run: "concurrency 16, 10% 429",
      concurrency: 16,
      ratioTarget: TARGET.ratioUnder429,
    });

    // A body of the size the judge sends: system prompt, candidate, verdict tool.
    const floorBody = JSON.stringify({
      model: MODEL,
      max_tokens: 1024,
      system: "x".repeat(1400),
      messages: [{ role: "user", content: "y".repeat(300) }],
      tools: [{ name: "record_verdict", input_schema: { type: "object" } }],
    });
    const floor = await measureHttpFloor({ url: plain.url, concurrency: 16, body: floorBody });

    const concurrencies = [4, 16, 64];
    const before = await plain.stats();
    const whole = await measureWholeProcess({
      roots: cliRoots,
      baseUrl: plain.url,
      evals: EVALS,
      concurrencies,
      repeats,
    });
    const wholeRequests = (await plain.stats()).requests - before.requests;

    const limitedRow = rows.at(-1)!;
    const retries = limitedRow.m.attempts - limitedRow.m.report.summary.judgeCalls;
    console.log(
      [
        `Engine benchmark: ${CALLS} judge calls per run (${EVALS} evals × ${CRITERIA} criteria) through runSuite + createAnthropicJudge + the SDK,`,
        `against the Messages API stand-in in a child process answering after ${LATENCY_MS} ms (429 run: 10% of requests answered 429, retry-after: 1).`,
        `node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(2)}; RSS at rest after the warm-up and a full GC: ${restingRssMb.toFixed(0)} MB.`,
        "",
        renderTable(rows),
        "",
        `bare node:http floor at concurrency 16 (no SDK, no engine): ${(floor.wallMs / 1000).toFixed(2)} s wall, ratio ${(floor.wallMs / idealMs(16)).toFixed(3)}, ${floor.cpuMsPerCall.toFixed(2)} ms CPU/call.`,
        `429 run: the stand-in got ${limitedRow.requests} requests and answered ${limitedRow.rateLimited} of them 429; the judge retried ${retries} times; ${limitedRow.m.graded} of ${CALLS} calls graded.`,
        "ideal = ceil(calls / concurrency) × latency; ratio = wall / ideal; CPU/call = this process's user + system CPU during the run / calls;",
        `peak RSS = ${peakIsPerRun ? "the run's own peak (high-water mark reset before it, after a full GC)" : "the peak of the bench so far (no per-run reset on this OS)"}.`,
        "",
        `The same suite through the whole CLI (bin/rubric-studio.mjs, its bundle built first), one process per run, median of ${repeats}:`,
        ...[...whole].flatMap(([root, figures]) => [
          `${root}:`,
          renderProcessTable({
            figures,
            idealMs,
            ratioTarget: TARGET.processRatio,
            validateTargetMs: TARGET.validateMs,
          }),
        ]),
        "wall = spawn to exit (start-up, YAML, plan, run, report); CPU = the process's own user + system CPU.",
      ].join("\n"),
    );
    const wholeGraded = wholeRequests === CALLS * concurrencies.length * repeats * cliRoots.length;
    if (!wholeGraded)
      console.error(
        `\nFAILED: the whole-process runs sent ${wholeRequests} requests, not ${CALLS} per run.`,
      );
    const allGraded = wholeGraded && rows.every((r) => r.m.graded === CALLS);
    if (!allGraded) console.error("\nFAILED: some judge calls were not graded.");
    return allGraded ? 0 : 1;
  } finally {
    plain.stop();
    limited.stop();
  }
}

process.exitCode = await main();
