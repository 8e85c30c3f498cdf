import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Bounds by source: a file run from the CLI may plan 10,000,000 cells, what a
// browser posts 10,000. The file's bounds reach the loader only from lib/cli
// (file-limits.ts), which lint keeps app/ and the rest of lib/ from importing;
// this keeps the constant itself from being picked up anywhere else.

const root = path.resolve(import.meta.dirname, "../..");

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs)$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe("a file's plan bounds", () => {
  it("are used by lib/cli only: the dashboard, the editor's API, workers and the engine keep the browser's", async () => {
    const files = [
      ...(await sources("app")),
      ...(await sources("components")),
      ...(await sources("lib")),
    ].filter((f) => !f.startsWith("lib/cli/") && f !== "lib/config/limits.ts");
    const users: string[] = [];
    for (const file of files)
      if ((await readFile(path.join(root, file), "utf8")).includes("FILE_PLAN_LIMITS"))
        users.push(file);
    expect(users).toEqual([]);
    const cli = await readFile(path.join(root, "lib/cli/file-limits.ts"), "utf8");
    expect(cli).toContain("FILE_PLAN_LIMITS");
  });
});
