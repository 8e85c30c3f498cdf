import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

// Runs the real `rubric-studio` command in a child process, the way a user or
// a CI job does (node bin/rubric-studio.mjs), and hands back what they see.
// The child gets a clean environment: none of the caller's ANTHROPIC_* or
// RUBRIC_STUDIO_* variables leak in, only what the test passes.

export interface CliRun {
  /** The exit code; null only when the process was killed (see `timedOut`). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunCliOptions {
  /** Added to the clean environment; undefined removes a variable. */
  env?: Record<string, string | undefined>;
  cwd: string;
  /** Written to stdin, which is then closed. */
  input?: string;
  /** Kill the child after this long, so that a hung CLI fails its test instead of the whole run. Default 30 s. */
  timeoutMs?: number;
}

export const CLI_BIN = fileURLToPath(new URL("../../bin/rubric-studio.mjs", import.meta.url));

const OWN_VARIABLES = /^(ANTHROPIC_|OPENAI_|RUBRIC_STUDIO_|DATABASE_URL$|NO_COLOR$|FORCE_COLOR$)/;

export function runCli(args: string[], options: RunCliOptions): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (OWN_VARIABLES.test(name)) delete env[name];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 30_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.end(options.input ?? "");
  });
}
