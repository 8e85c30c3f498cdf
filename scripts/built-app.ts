import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ensureBuild as ensureNextBuild, nextEnv, ROOT } from "./next-command";

export { ROOT };

// The production app for tools that look at it in a browser (`npm run
// bench:ui`, `npm run docs:screenshots`): built unless .next is newer than
// every source file, started as `npm start` does (scripts/serve.ts: the
// embedded database on a given data folder, its worker, Next), and Debian's
// Chromium with the flags that keep it off the closed network (STACK.md).

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

/** The app built as `npm start` builds it (scripts/next-command.ts), but in full: with Next's type check. */
export async function ensureBuild(log: (line: string) => void = console.log): Promise<void> {
  await ensureNextBuild({ log, full: true });
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
      env: nextEnv({
        ...process.env,
        RUBRIC_STUDIO_DATA_DIR: input.dataDir,
        DATABASE_URL: "",
        ANTHROPIC_API_KEY: "",
      }),
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
