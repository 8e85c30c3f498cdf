#!/usr/bin/env node
// The `rubric-studio` command. Runs the bundle in dist/cli (built on install
// and before tests) when it is newer than every source file; otherwise runs
// the TypeScript in place through tsx, so a fresh edit is never shadowed.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/cli/main.mjs`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  try {
    return statSync(bundle).mtimeMs >= Math.max(newestSource(`${root}lib`), statSync(`${root}package.json`).mtimeMs);
  } catch {
    return false;
  }
}

let main;
if (bundleIsFresh()) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../lib/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
