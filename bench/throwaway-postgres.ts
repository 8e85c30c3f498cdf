import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
  /** CPU the server has used so far, all its processes (Linux /proc), in ms. */
  cpuMs(): number | undefined;
  stop(): void;
}

/** CPU used by the server whose data folder is `data`: the postmaster, its children, the ones it reaped. */
function serverCpuMs(data: string): number | undefined {
  try {
    const pid = readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]!.trim();
    const ticks = (stat: string, fields: number) =>
      stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 11 + fields)
        .reduce((sum, v) => sum + Number(v), 0);
    let total = ticks(readFileSync(`/proc/${pid}/stat`, "utf8"), 4);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    for (const child of children ? children.split(" ") : []) {
      try {
        total += ticks(readFileSync(`/proc/${child}/stat`, "utf8"), 2);
      } catch {
        // Gone meanwhile: the postmaster counts it once it is reaped.
      }
    }
    return total * 10;
  } catch {
    return undefined;
  }
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
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      version,
      cpuMs: () => serverCpuMs(data),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}
