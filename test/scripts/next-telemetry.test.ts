import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Next's telemetry is off for every npm script that runs next (build, dev,
// start), whatever the caller's environment holds: Next sends nothing when
// its process has a non-empty NEXT_TELEMETRY_DISABLED, and sends when it is
// empty or unset. A module preloaded into every node process the script
// starts notes, for each `next` process, the command and that variable, and
// the test stops the script at the first one (nothing is built or served).

const ROOT = path.resolve(new URL("../..", import.meta.url).pathname);

interface NextProcess {
  command: string;
  disabled: string | null;
}

let dir: string;
let probe: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-telemetry-"));
  probe = path.join(dir, "probe.mjs");
  await writeFile(
    probe,
    [
      'import { appendFileSync } from "node:fs";',
      'if (/next[\\\\/]dist[\\\\/]bin[\\\\/]next$/.test(process.argv[1] ?? ""))',
      "  appendFileSync(process.env.RS_NEXT_PROCESSES, JSON.stringify({ command: process.argv[2], disabled: process.env.NEXT_TELEMETRY_DISABLED ?? null }) + '\\n');",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `npm run <args>` with the caller's NEXT_TELEMETRY_DISABLED empty; the next processes it started, once the first has. */
function nextProcessesOf(args: string[], name: string): Promise<NextProcess[]> {
  const log = path.join(dir, `${name}.jsonl`);
  const read = (): NextProcess[] =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as NextProcess)
      : [];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "",
        NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`,
        RS_NEXT_PROCESSES: log,
        DATABASE_URL: "",
        ANTHROPIC_API_KEY: "",
        RUBRIC_STUDIO_DATA_DIR: path.join(dir, `${name}-pglite`),
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that npm, tsx, the serve script and next stop together.
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const poll = setInterval(() => {
      if (read().length > 0) stop();
    }, 200);
    const deadline = setTimeout(() => stop(), 120_000);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      clearTimeout(deadline);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }
      const started = read();
      if (started.length === 0) reject(new Error(`npm run ${args[0]} started no next:\n${output}`));
      else resolve(started);
    };
    child.on("error", reject);
    child.on("exit", () => setTimeout(stop, 500));
  });
}

describe("Next's telemetry", { timeout: 150_000 }, () => {
  it("is off for npm run build", async () => {
    // An empty folder: next would stop at once, with no app/ to build.
    const started = await nextProcessesOf(["build", "--", dir], "build");
    expect(started[0]).toEqual({ command: "build", disabled: "1" });
  });

  it("is off for npm run dev", async () => {
    const started = await nextProcessesOf(["dev", "--", "--port", "0"], "dev");
    expect(started[0]).toEqual({ command: "dev", disabled: "1" });
  });

  it("is off for npm start (its build, when .next is out of date, and next start)", async () => {
    const started = await nextProcessesOf(["start", "--", "--port", "0"], "start");
    expect(["build", "start"]).toContain(started[0]!.command);
    expect(started[0]!.disabled).toBe("1");
  });
});
