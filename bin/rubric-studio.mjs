#!/usr/bin/env node
// The `rubric-studio` command. Runs the bundle in dist/cli (built on install
// and before tests) when it is newer than every source file; otherwise runs
// the TypeScript in place through tsx, so a fresh edit is never shadowed.
import { fileURLToPath } from "node:url";
import { bundleIsFresh } from "./fresh-bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/cli/main.mjs`;

let main;
if (bundleIsFresh(root, bundle)) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../lib/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
