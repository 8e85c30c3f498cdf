import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../lib/store/embedded-postgres";

// A Postgres server for one benchmark run, started the way .ci/run starts the
// tests' server (STACK.md, "A real Postgres for tests and CI"): Debian's
// binaries, a temporary folder, a spare port, fsync off, run as the postgres
// user when we are root (initdb refuses to run as root). Stopped, and its
// folder removed, by `stop()`, which is safe to call twice.

export interface ThrowawayPostgres {
  url: string;
  version: string;
  stop(): void;
}

/** The newest installed server's bin folder, preferring 15 (what CI tests on). */
export function findPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (existsSync(path.join(root, "15/bin/initdb"))) return path.join(root, "15/bin");
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin/initdb")))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(root, newest, "bin") : undefined;
}

export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rs-bench-pg-"));
  // As root, every server command runs as the postgres user, through su as
  // in .ci/run; the folder paths come from mkdtemp and hold no quotes.
  const run = (command: string) =>
    asRoot
      ? execFileSync("su", ["postgres", "-c", command], { stdio: ["ignore", "pipe", "pipe"] })
      : execFileSync("sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        run(`${bin}/pg_ctl -D ${data} -m immediate stop`);
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    run(`${bin}/initdb -D ${data} -U postgres --auth=trust -E UTF8`);
    // -l: the server's output goes to a file, so pg_ctl returns once it is up.
    started = true;
    run(
      `${bin}/pg_ctl -D ${data} -l ${dir}/server.log -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off' -w start`,
    );
    const version = execFileSync(`${bin}/postgres`, ["--version"]).toString().trim();
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, version, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
