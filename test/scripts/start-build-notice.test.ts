import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildIsCurrent } from "../../scripts/next-command";

// A fresh clone's `npm start` builds the dashboard first, for minutes with next's one line on
// screen: it says so before anything else, so that the wait does not read as a hang. The script
// is stopped at once (a bad setting), before it builds or serves anything.

const ROOT = path.resolve(new URL("../..", import.meta.url).pathname);

function serveStart(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "start"],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: "", RUBRIC_STUDIO_MAX_CELLS: "many" },
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
});
