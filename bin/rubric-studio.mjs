#!/usr/bin/env node
// The `rubric-studio` command. Runs the bundle in dist/cli (built on install
// and before tests) when it is newer than every source file; otherwise runs
// the TypeScript in place through tsx, so a fresh edit is never shadowed.
// The Node check comes first: imports run in order, and nothing else may load before it.
import "./require-node.mjs";
import module from "node:module";
import { fileURLToPath } from "node:url";
import { bundleIsFresh } from "./fresh-bundle.mjs";

// V8 keeps the code it compiled for the bundle in Node's on-disk compile cache
// (the OS temp folder, or NODE_COMPILE_CACHE), so a later run skips compiling
// it again; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

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
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
