import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { buildIsCurrent } from "../../scripts/next-command";

// A fresh clone's `npm start` builds the dashboard first, for minutes with next's one line on
// screen: it says so before anything else, so that the wait does not read as a hang. The script
// is stopped at once (a bad setting), before it builds or serves anything.

const ROOT = path.resolve(new URL("../..", import.meta.url).pathname);

function serveStart(
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "start"],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: "", RUBRIC_STUDIO_MAX_CELLS: "many", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("npm start's first build", () => {
  it.skipIf(buildIsCurrent())(
    "is announced before it starts, in minutes",
    async () => {
      const { code, output } = await serveStart();
      expect(code).toBe(2);
      expect(output).toMatch(/^npm start: building the dashboard first .*this takes minutes/);
      expect(output.indexOf("this takes minutes")).toBeLessThan(output.indexOf("error:"));
    },
    60_000,
  );

  it.skipIf(buildIsCurrent())(
    "is announced once, and the quick build's turned-off cache is said not to be an error",
    async ({ onTestFinished }) => {
      // Up to the build: the database and the worker start, then next is stopped as it starts
      // (a module preloaded into every node process), so nothing is built or served.
      const dir = await mkdtemp(path.join(os.tmpdir(), "rs-notice-"));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      const probe = path.join(dir, "probe.mjs");
      await writeFile(
        probe,
        'if (/next[\\\\/]dist[\\\\/]bin[\\\\/]next$/.test(process.argv[1] ?? "")) process.exit(3);\n',
      );
      const { code, output } = await serveStart({
        RUBRIC_STUDIO_MAX_CELLS: "",
        ANTHROPIC_API_KEY: "",
        RUBRIC_STUDIO_DATA_DIR: path.join(dir, "pglite"),
        NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`,
      });
      expect(output).toContain("next build exited with 3");
      expect(code).toBe(1);
      expect(output.match(/building the dashboard first/g)).toHaveLength(1);
      // Next's "⨯ turbopackFileSystemCacheForBuild" (the quick build's cache turned off) reads like
      // an error: one line before the build says what it is.
      const note = output.indexOf("'⨯ turbopackFileSystemCacheForBuild', an option turned off");
      expect(note, output).toBeGreaterThan(output.indexOf("building the dashboard first"));
      expect(note).toBeLessThan(output.indexOf("next build exited with 3"));
    },
    120_000,
  );
});
