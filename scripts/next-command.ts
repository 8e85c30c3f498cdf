import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Every `next` this project starts (`npm run build`, `npm run dev`, `npm
// start`, the benches and browser tests) goes through here, so that Next's
// telemetry is off whatever the caller's environment holds: a self-hosted
// tool that works offline reports nothing home. (Next reads any non-empty
// NEXT_TELEMETRY_DISABLED as "off", "0" included, and an empty one as "on".)
//
// `tsx scripts/next-command.ts build [args]` is `npm run build`. `ensureBuild`
// is what `npm start` does first: build unless .next is newer than every
// source the app is built from.

/** The project folder: the nearest folder above this module with next.config.ts (it runs from scripts/ or bundled under .bench/). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "next.config.ts")) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return dir;
})();
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** The environment a `next` process gets: the caller's, with telemetry off. */
export function nextEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NEXT_TELEMETRY_DISABLED: "1" };
}

/** Runs `next <args>` in the project folder; resolves with its exit code. */
export function runNext(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args], {
      cwd: ROOT,
      env: nextEnv(env),
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Files outside app/, components/, lib/ and public/ that the build reads. */
const BUILD_FILES = [
  "next.config.ts",
  "proxy.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
];

/** Newest modification time under what the app is built from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (
        entry.name === "node_modules" ||
        entry.name === "generated" ||
        entry.name.startsWith(".") ||
        entry.name.endsWith(".md")
      )
        continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ["app", "components", "lib", "public"]) walk(path.join(ROOT, dir));
  for (const file of BUILD_FILES) {
    const full = path.join(ROOT, file);
    if (existsSync(full)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether .next holds a build newer than every source file. */
export function buildIsCurrent(): boolean {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  return existsSync(buildId) && statSync(buildId).mtimeMs > newestSource();
}

/**
 * What `npm start` says first when it has to build: a first build is minutes of next's one line
 * ("Creating an optimized production build ..."), which reads as a hang unless said beforehand.
 */
export const BUILD_NOTICE =
  "building the dashboard first (next build: the first start, or the sources changed): this takes minutes (about 6 on two busy cores, 1 to 2 on idle ones); later starts reuse the build";

/**
 * Said just before the quick build, which turns Turbopack's build cache off (next.config.ts): Next
 * then lists the experiment as "⨯ turbopackFileSystemCacheForBuild", which reads like an error.
 * Measured from an empty .next on two busy cores (load 10 to 17): 288 s without the cache against
 * 374 s writing it; a rebuild after a one-file change 222 s without it, 56 s with it. A first start
 * is what a new user waits for, so the quick build goes without.
 */
export const QUICK_BUILD_NOTE =
  "next build, quick: no type check and no Turbopack build cache (Next lists the cache below as '⨯ turbopackFileSystemCacheForBuild', an option turned off, not an error)";

/**
 * Builds the app unless .next is current. Unless `full`, the quick build
 * (next.config.ts): no type check (about half of a build on two cores;
 * `npm run typecheck` and CI check the types) and no Turbopack cache written;
 * someone starting the dashboard needs only the app.
 */
export async function ensureBuild(
  input: {
    log?: (line: string) => void;
    full?: boolean;
    /** The caller said BUILD_NOTICE already (`npm start`, before it set anything up): not again. */
    announced?: boolean;
  } = {},
): Promise<void> {
  const log = input.log ?? console.log;
  if (buildIsCurrent()) {
    log("reusing the build in .next (newer than every source file)");
    return;
  }
  if (!input.announced) log(`${BUILD_NOTICE}...`);
  if (!input.full) log(QUICK_BUILD_NOTE);
  const started = performance.now();
  const code = await runNext(["build"], {
    ...process.env,
    ...(input.full ? {} : { RUBRIC_STUDIO_QUICK_BUILD: "1" }),
  });
  if (code !== 0) throw new Error(`next build exited with ${code}`);
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = await runNext(process.argv.slice(2));
}
