#!/usr/bin/env node
// Runs the TypeScript CLI in place through tsx, so `npx rubric-studio` works
// right after `npm install` with no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
