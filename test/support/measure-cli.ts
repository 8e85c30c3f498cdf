import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { CLI_BIN } from "./run-cli";

// What the scale tests measure of the real CLI: a big dataset file written as a stream (the test
// holds none of its lines), and the command's peak resident set under /usr/bin/time -v.

/** Writes `count` lines made by `line`, streaming, so the test itself holds none of them. */
export async function writeLines(file: string, count: number, line: (i: number) => string) {
  const out = createWriteStream(file);
  for (let i = 1; i <= count; i++) if (!out.write(`${line(i)}\n`)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** The CLI under /usr/bin/time -v: what it prints, and its peak resident set in MB. */
export async function measuredCli(input: {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ code: number | null; stdout: string; stderr: string; peakMb: number }> {
  const child = spawn("/usr/bin/time", ["-v", process.execPath, CLI_BIN, ...input.args], {
    cwd: input.cwd,
    env: input.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]);
  return { code, stdout, stderr, peakMb: kb / 1024 };
}
