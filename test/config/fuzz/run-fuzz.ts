import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { FULL_SIZES, QUICK_SIZES, mutateSuite, seededRandom } from "./mutate-suite";
import type { CaseOutcome, CaseResult } from "./fuzz-case";

// The fuzz pool: mutated suites (seeded from the README's example files and
// the guide's), each run in a worker thread with a time limit. A case over
// the limit is a hang: its worker is terminated and a fresh one takes the
// next case. Shared by the test suite (a few thousand cases) and
// `npm run fuzz` (ten thousand and more).

export interface FuzzOptions {
  root: string;
  cases: number;
  /** The number of the first case (to rerun a failure: its number, and cases 1). Default 0. */
  first?: number;
  seed: number;
  timeLimitMs: number;
  workers: number;
  /** Heavy mutations at full size (datasets past the limit, strings past the file limit), or kept small. */
  full: boolean;
  onProgress?: (done: number) => void;
}

export interface FuzzFailure {
  case: number;
  outcome: CaseOutcome | "hang";
  detail: string;
  /** The start of the suite text, to reproduce it by eye (the case number and seed reproduce it exactly). */
  excerpt: string;
}

export interface FuzzFigures {
  cases: number;
  valid: number;
  invalid: number;
  crashes: number;
  hangs: number;
  unlocated: number;
  failures: FuzzFailure[];
  ms: { p50: number; p99: number; max: number };
  /** The slowest cases, slowest first: [case, ms]. */
  slowest: [number, number][];
}

export function seedSuites(root: string): string[] {
  const from = (dir: string, keep: (name: string) => boolean) =>
    readdirSync(path.join(root, dir))
      .filter(keep)
      .sort()
      .map((name) => readFileSync(path.join(root, dir, name), "utf8"));
  return [
    ...from("examples", (name) => name.endsWith(".yaml")),
    ...from("test/fixtures/guide", () => true),
  ];
}

/** The text of case `n`: the same seed and number give the same suite. */
export function fuzzCase(input: {
  seeds: readonly string[];
  seed: number;
  n: number;
  full: boolean;
}): string {
  return mutateSuite({
    seeds: input.seeds,
    random: seededRandom(input.seed * 1_000_003 + input.n),
    sizes: input.full ? FULL_SIZES : QUICK_SIZES,
  });
}

async function buildWorker(root: string): Promise<string> {
  const outfile = path.join(root, ".bench/fuzz/fuzz-worker.mjs");
  await build({
    entryPoints: [path.join(root, "test/config/fuzz/fuzz-worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  return outfile;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const workerFile = await buildWorker(options.root);
  const seeds = seedSuites(options.root);
  const figures: FuzzFigures = {
    cases: 0,
    valid: 0,
    invalid: 0,
    crashes: 0,
    hangs: 0,
    unlocated: 0,
    failures: [],
    ms: { p50: 0, p99: 0, max: 0 },
    slowest: [],
  };
  const times: number[] = [];
  const byCase: [number, number][] = [];
  let next = options.first ?? 0;
  const end = next + options.cases;

  const record = (
    n: number,
    text: string,
    outcome: CaseOutcome | "hang",
    ms: number,
    detail?: string,
  ) => {
    figures.cases++;
    times.push(ms);
    byCase.push([n, ms]);
    if (outcome === "valid") figures.valid++;
    else if (outcome === "invalid") figures.invalid++;
    else {
      if (outcome === "crash") figures.crashes++;
      if (outcome === "hang") figures.hangs++;
      if (outcome === "unlocated") figures.unlocated++;
      figures.failures.push({
        case: n,
        outcome,
        detail: detail ?? "",
        excerpt: text.slice(0, 300),
      });
    }
    options.onProgress?.(figures.cases);
  };

  const lane = () =>
    new Promise<void>((resolve) => {
      let worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
      let current: { n: number; text: string; timer: NodeJS.Timeout } | undefined;
      const listen = (w: Worker) => {
        w.on("message", (result: CaseResult & { id: number }) => {
          if (!current || result.id !== current.n) return;
          clearTimeout(current.timer);
          record(current.n, current.text, result.outcome, result.ms, result.detail);
          send();
        });
        // A worker that dies (out of memory, say) fails its case; a fresh one takes the next.
        w.on("error", (error) => {
          if (!current) return;
          clearTimeout(current.timer);
          record(
            current.n,
            current.text,
            "crash",
            options.timeLimitMs,
            error.stack ?? String(error),
          );
          replace();
        });
      };
      const replace = () => {
        void worker.terminate();
        worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
        listen(worker);
        send();
      };
      const send = () => {
        if (next >= end) {
          current = undefined;
          void worker.terminate().then(() => resolve());
          return;
        }
        const n = next++;
        const text = fuzzCase({ seeds, seed: options.seed, n, full: options.full });
        const timer = setTimeout(() => {
          record(
            n,
            text,
            "hang",
            options.timeLimitMs,
            `no answer within ${options.timeLimitMs} ms`,
          );
          current = undefined;
          replace();
        }, options.timeLimitMs);
        current = { n, text, timer };
        worker.postMessage({ id: n, text });
      };
      listen(worker);
      send();
    });

  await Promise.all(Array.from({ length: options.workers }, lane));
  const sorted = [...times].sort((a, b) => a - b);
  figures.ms = {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
  };
  figures.failures.sort((a, b) => a.case - b.case);
  figures.slowest = byCase.sort((a, b) => b[1] - a[1]).slice(0, 5);
  return figures;
}
