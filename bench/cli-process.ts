import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

// The whole-process rows of `npm run bench:engine`: the real command
// (bin/rubric-studio.mjs running the bundle scripts/build-cli.mjs makes), one
// process per run, timed from spawn to exit, so start-up, reading and parsing
// the YAML, planning, the run, the report and the exit all count. Its CPU
// (user + system) is what the process reports of itself as it exits, through a
// preload that writes process.cpuUsage() to a file. Each figure is the median
// of `repeats` processes, taken in turns (4, 16, 64, 4, 16, 64, ...; and each
// checkout in turn when several are compared) so that a burst of load on a
// shared machine does not land on one row, or one checkout, only.

export const MODEL = "claude-haiku-4-5";
export const CRITERIA = 6;

/** The bench's suite: `evals` × CRITERIA criteria, one judge call each. */
export function suiteText(evals: number): string {
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
    for (let c = 1; c <= CRITERIA; c++)
      lines.push(
        `        - { name: criterion ${c}, description: "Checks aspect ${c} of the answer: it is stated plainly and correctly." }`,
      );
  }
  return `${lines.join("\n")}\n`;
}

const CPU_PRELOAD = `import { writeFileSync } from "node:fs";
process.on("exit", () => { const u = process.cpuUsage(); writeFileSync(process.env.BENCH_CPU_FILE, String((u.user + u.system) / 1000)); });
`;

export interface ProcessFigures {
  /** Median wall time from spawn to exit, ms. */
  wallMs: number;
  /** Median user + system CPU of the process, ms. */
  cpuMs: number;
}

/** One process: wall time from spawn to exit and its own user + system CPU, ms. */
type Sample = { wallMs: number; cpuMs: number };

/** The CLI's environment in a bench: none of this shell's own settings (DATABASE_URL would turn run history on), the stand-in, no colour. */
export function cliEnv(baseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (/^(ANTHROPIC_|OPENAI_|RUBRIC_STUDIO_|DATABASE_URL$|NODE_OPTIONS$)/.test(name))
      delete env[name];
  return { ...env, ANTHROPIC_API_KEY: "sk-ant-bench", ANTHROPIC_BASE_URL: baseUrl, NO_COLOR: "1" };
}

interface ProcessRunner {
  /** The folder the processes run in (their suite files go there). */
  dir: string;
  run(bin: string, args: string[]): Promise<Sample>;
  cleanUp(): Promise<void>;
}

/**
 * Builds the CLI (as npm install and npm test do), so the command runs its
 * bundle and not the TypeScript through tsx, which would time the compiler.
 */
function buildCli(root: string): void {
  const built = spawnSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (built.status !== 0) throw new Error(`scripts/build-cli.mjs failed (${built.status})`);
}

async function createProcessRunner(input: { baseUrl: string }): Promise<ProcessRunner> {
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-bench-cli-"));
  const preload = path.join(dir, "cpu-usage.mjs");
  await writeFile(preload, CPU_PRELOAD);
  const env = cliEnv(input.baseUrl);
  let runs = 0;
  return {
    dir,
    async run(bin, args) {
      const cpuFile = path.join(dir, `cpu-${runs++}`);
      const started = performance.now();
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
        (resolve, reject) => {
          const child = spawn(process.execPath, ["--import", preload, bin, ...args], {
            cwd: dir,
            env: { ...env, BENCH_CPU_FILE: cpuFile },
            stdio: ["ignore", "ignore", "pipe"],
          });
          let err = "";
          child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
          child.once("error", reject);
          child.once("close", (exitCode) => resolve({ code: exitCode, stderr: err }));
        },
      );
      const wallMs = performance.now() - started;
      if (code !== 0) throw new Error(`rubric-studio ${args.join(" ")} exited ${code}\n${stderr}`);
      return { wallMs, cpuMs: Number(await readFile(cpuFile, "utf8")) };
    },
    cleanUp: () => rm(dir, { recursive: true, force: true }),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface WholeProcessFigures {
  /** `eval` of the EVALS × CRITERIA suite, per concurrency. */
  evals: Map<number, ProcessFigures>;
  /** `validate` of a 2-eval suite: start-up. */
  validate: ProcessFigures;
}

/**
 * Runs, for the CLI of each checkout in `roots`, `eval` of a suite of `evals`
 * evals at each concurrency and `validate` of a small suite, `repeats` times each.
 */
export async function measureWholeProcess(input: {
  roots: string[];
  baseUrl: string;
  evals: number;
  concurrencies: number[];
  repeats: number;
}): Promise<Map<string, WholeProcessFigures>> {
  for (const root of input.roots) buildCli(root);
  const runner = await createProcessRunner(input);
  try {
    const suiteFile = "suite.yaml";
    const smallFile = "small.yaml";
    await writeFile(path.join(runner.dir, suiteFile), suiteText(input.evals));
    await writeFile(path.join(runner.dir, smallFile), suiteText(2));
    const jobs: [string, string[]][] = [
      ["validate", ["validate", "--config", smallFile]],
      ...input.concurrencies.map((c): [string, string[]] => [
        String(c),
        ["eval", "--config", suiteFile, "--concurrency", String(c)],
      ]),
    ];
    const samples = new Map(
      input.roots.map((root) => [root, new Map<string, Sample[]>(jobs.map(([job]) => [job, []]))]),
    );
    for (let round = 0; round < input.repeats; round++) {
      for (const [job, args] of jobs) {
        for (const root of input.roots)
          samples
            .get(root)!
            .get(job)!
            .push(await runner.run(path.join(root, "bin/rubric-studio.mjs"), args));
      }
    }
    const figures = (list: Sample[]) => ({
      wallMs: median(list.map((s) => s.wallMs)),
      cpuMs: median(list.map((s) => s.cpuMs)),
    });
    return new Map(
      [...samples].map(([root, byJob]) => [
        root,
        {
          evals: new Map(input.concurrencies.map((c) => [c, figures(byJob.get(String(c))!)])),
          validate: figures(byJob.get("validate")!),
        },
      ]),
    );
  } finally {
    await runner.cleanUp();
  }
}

/** One line per whole-process figure, with its target and ✓ or ✗. */
export function renderProcessTable(input: {
  figures: WholeProcessFigures;
  idealMs: (concurrency: number) => number;
  ratioTarget: Record<number, number>;
  validateTargetMs: number;
}): string {
  const check = (ok: boolean) => (ok ? "✓" : "✗");
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const head = ["whole process", "wall", "CPU", "ideal", "ratio", "target"];
  const body = [...input.figures.evals].map(([concurrency, f]) => {
    const ratio = f.wallMs / input.idealMs(concurrency);
    const target = input.ratioTarget[concurrency]!;
    return [
      `eval, concurrency ${concurrency}`,
      s(f.wallMs),
      s(f.cpuMs),
      s(input.idealMs(concurrency)),
      ratio.toFixed(3),
      `≤${target.toFixed(2)} ${check(ratio <= target)}`,
    ];
  });
  const v = input.figures.validate;
  body.push([
    "validate (2 evals): start-up",
    s(v.wallMs),
    s(v.cpuMs),
    "",
    "",
    `wall <${s(input.validateTargetMs)} ${check(v.wallMs < input.validateTargetMs)}`,
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((cells) => cells[i]!.length)));
  return [head, ...body]
    .map((cells) =>
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  "),
    )
    .join("\n");
}
