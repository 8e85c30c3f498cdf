import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// The production app for tools that look at it in a browser (`npm run
// bench:ui`, `npm run docs:screenshots`): built unless .next is newer than
// every source file, started as `npm start` does (scripts/serve.ts: the
// embedded database on a given data folder, its worker, Next), and Debian's
// Chromium with the flags that keep it off the closed network (STACK.md).

/** The project folder: the nearest folder above this module with next.config.ts (it runs from scripts/ or bundled under .bench/). */
export const ROOT = (() => {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  while (!existsSync(path.join(dir, "next.config.ts")) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return dir;
})();
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
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
  for (const file of ["next.config.ts", "package.json"])
    newest = Math.max(newest, statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

export async function ensureBuild(log: (line: string) => void = console.log): Promise<void> {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestSource()) {
    log("reusing the build in .next (newer than every source file)");
    return;
  }
  log("building the app (next build)...");
  const started = performance.now();
  await run(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

export interface BuiltApp {
  url: string;
  stop(): Promise<void>;
}

/** `npm start` on `port`, its embedded database in `dataDir`, no judge key; resolves once /runs answers. */
export async function startBuiltApp(input: { dataDir: string; port: number }): Promise<BuiltApp> {
  const app: ChildProcess = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
      "scripts/serve.ts",
      "start",
      "--port",
      String(input.port),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        RUBRIC_STUDIO_DATA_DIR: input.dataDir,
        DATABASE_URL: "",
        ANTHROPIC_API_KEY: "",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const url = `http://127.0.0.1:${input.port}`;
  const stop = async () => {
    if (app.exitCode !== null || app.signalCode !== null) return;
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (app.exitCode !== null)
      throw new Error(`the app exited with ${app.exitCode} while starting`);
    const ok = await fetch(`${url}/runs`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error("the app did not answer within 120 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
