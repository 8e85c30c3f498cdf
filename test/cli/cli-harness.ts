import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeMessagesApiOptions,
} from "../support/fake-messages-api";
import { CLI_BIN, runCli, type CliRun } from "../support/run-cli";
import type { Report } from "../../lib/engine/results/report";

// What the CLI tests share: a temporary folder to write suites in, the Messages
// API stand-in in this process, and the environment that points the CLI at it.
// Each test gets its own of both, so tests can run concurrently and count the
// requests they caused.

export type OnFinished = (fn: () => void | Promise<void>) => void;

export interface Workspace {
  dir: string;
  /** Writes a file (creating folders) and returns its path relative to the workspace. */
  write(name: string, text: string): Promise<string>;
  read(name: string): Promise<string>;
  readReport(name: string): Promise<Report>;
  /** Runs the CLI in this folder. */
  cli(args: string[], env?: Record<string, string | undefined>): Promise<CliRun>;
}

export async function makeWorkspace(onFinished: OnFinished): Promise<Workspace> {
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-cli-"));
  onFinished(() => rm(dir, { recursive: true, force: true }));
  const read = (name: string) => readFile(path.join(dir, name), "utf8");
  return {
    dir,
    async write(name, text) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
      return name;
    },
    read,
    async readReport(name) {
      return JSON.parse(await read(name)) as Report;
    },
    cli: (args, env) => runCli(args, { cwd: dir, env: env ?? {} }),
  };
}

export interface FakeJudge {
  api: FakeMessagesApi;
  /** The environment that makes the CLI grade against the stand-in. */
  env: Record<string, string>;
}

export async function startFakeJudge(
  onFinished: OnFinished,
  options: FakeMessagesApiOptions = {},
): Promise<FakeJudge> {
  const api = await startFakeMessagesApi(options);
  onFinished(() => api.close());
  return { api, env: { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: api.url } };
}

/** A suite as YAML text, from lines written with two-space indentation. */
export function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

/** `count` fixed-response evals ("answer 1"…), one criterion each, judged by claude-haiku-4-5. */
export function invoiceSuite(count: number): string {
  return yaml(
    "judge: { model: claude-haiku-4-5 }",
    "evals:",
    ...Array.from({ length: count }, (_, i) => [
      `  - name: answer ${i + 1}`,
      `    response: "Invoice ${i + 1} totaled $${(i + 1) * 10}.00."`,
      '    rubric: "States the invoice total."',
    ]).flat(),
  );
}

/** The text of every eval's candidate that a request graded (what the stand-in saw). */
export function candidateOf(request: { user: string }): string {
  return /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.user)?.[1] ?? "";
}

/**
 * A judge for crash tests: answers the first `answered` requests at once and
 * holds every later one until release(), so that when the test kills a
 * process, exactly the held requests are in flight and every earlier verdict
 * was delivered long before. Held requests then answer into the void.
 */
export function heldAfter(answered: number) {
  let releaseAll: () => void = () => {};
  let holding = true;
  const gate = new Promise<void>((resolve) => {
    releaseAll = () => {
      holding = false;
      resolve();
    };
  });
  return {
    respond: async (request: { index: number }) => {
      if (holding && request.index >= answered) await gate;
      return { verdict: { reasoning: "ok", score: 0.9 } };
    },
    release: () => releaseAll(),
  };
}

export interface SpawnedCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** A CLI process left running (to be interrupted by the test), its output collected. */
export function spawnCli(input: {
  cwd: string;
  args: string[];
  env: Record<string, string>;
}): SpawnedCli {
  const child = spawn(process.execPath, [CLI_BIN, ...input.args], {
    cwd: input.cwd,
    env: { ...process.env, ...input.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export interface WorkerProcess {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

/** A `rubric-studio worker` process, resolved once it says it is ready; killed when the test ends. */
export function startWorkerProcess(input: {
  cwd: string;
  env: Record<string, string>;
  onFinished: OnFinished;
  concurrency?: number;
}): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    [CLI_BIN, "worker", "--concurrency", String(input.concurrency ?? 4)],
    {
      cwd: input.cwd,
      env: { ...process.env, ...input.env, RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS: "10" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  input.onFinished(() => {
    child.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (stderr.includes("Worker ready")) {
        clearInterval(timer);
        resolve({ child, stderr: () => stderr, exited });
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`worker exited (${code}): ${stderr}`));
    });
  });
}
