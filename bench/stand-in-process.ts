import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// What the whole-process scale benchmarks share (bench:scale, bench:queue): the
// Messages API stand-in in its own process, a generated JSON Lines dataset, its
// suite (items × criteria), and the preload by which a CLI process writes its
// own CPU time and peak RSS to BENCH_FILE as it exits.

const STAND_IN = fileURLToPath(
  // The bundles run from .bench/<name>/.
  new URL("../../test/support/fake-messages-api-main.ts", import.meta.url),
);
const MODEL = "claude-haiku-4-5";

export async function writeDataset(file: string, items: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < items; i++) {
    const line = `${JSON.stringify({ id: `q${i}`, input: `What did invoice ${i} total?`, expected_output: `Invoice ${i} totaled $${(i * 7.5).toFixed(2)}, tax included.` })}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "close");
}

/** `run` (bench:scale --store) makes each run's rubric its own, so that no verdict comes from the judge cache. */
export function suiteText(
  shape: { criteria: number; jury: number },
  dataset: string,
  run?: number,
): string {
  return [
    `judge: { model: ${MODEL}${shape.jury > 1 ? `, jury: { size: ${shape.jury}, consensus: 0.5 }` : ""} }`,
    "datasets:",
    `  items: { file: ${dataset} }`,
    "evals:",
    "  - name: invoices",
    "    candidates: { dataset: items }",
    "    rubric:",
    "      threshold: 0.7",
    "      criteria:",
    ...Array.from(
      { length: shape.criteria },
      (_, c) =>
        `        - { name: criterion ${c + 1}, description: "Checks aspect ${c + 1} of the answer: it is stated plainly and correctly${run === undefined ? "" : ` (run ${run})`}." }`,
    ),
    "",
  ].join("\n");
}

export const PRELOAD = `import { writeFileSync } from "node:fs";
process.on("exit", () => { const u = process.cpuUsage(); writeFileSync(process.env.BENCH_FILE, JSON.stringify({ cpuMs: (u.user + u.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 })); });
`;

/** What the stand-in has seen since it started (its `stats` line, fake-messages-api-main.ts). */
export interface StandInStats {
  requests: number;
  /** Plain calls answered 200: billed. */
  answered: number;
  /** Received and not answered yet. */
  inFlight: number;
  /** The client left before the answer (a killed process's calls in flight). */
  abandoned: number;
  /** Requests in each Message Batch created, in order. */
  batches: number[];
  /** Batched custom_ids billed once, and more than once. */
  batchBilled: { once: number; more: number };
}

export interface StandIn {
  url: string;
  stats(): Promise<StandInStats>;
  stop(): void;
}

export async function startStandIn(latencyMs: number): Promise<StandIn> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", STAND_IN, "--latency-ms", String(latencyMs)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const waiting: { resolve: (rest: string) => void; reject: (error: Error) => void }[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("READY ")) resolve(line.slice(6));
      if (line.startsWith("STATS ")) waiting.shift()?.resolve(line.slice(6));
    });
    child.once("exit", (code) => {
      const error = new Error(`the stand-in exited (${code})`);
      reject(error);
      for (const w of waiting.splice(0)) w.reject(error);
    });
  });
  return {
    url,
    async stats() {
      const reply = new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
      child.stdin!.write("stats\n");
      return JSON.parse(await reply) as StandInStats;
    },
    stop: () => child.kill("SIGTERM"),
  };
}
