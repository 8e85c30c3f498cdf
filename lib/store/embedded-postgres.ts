import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { requirePassword } from "./embedded-password";
import { serializeExtendedProtocol } from "./serialize-extended-protocol";
import { withAdapter } from "./connection";
import { applyMigrations } from "./schema-engine";

// The embedded default database: PGlite (Postgres compiled to WebAssembly) on
// a data folder, served over the Postgres wire protocol by pglite-socket, so
// the app talks to it exactly as to a real server. One server per data folder:
// the one that holds it writes server.json beside it, and other processes
// (the CLI while the dashboard runs) connect to that instead of opening the
// folder a second time.
// Only this user may connect: the server asks for a password, made at each
// start and written in server.json (mode 0600, as the data folder is 0700),
// where the CLI, workers and the dashboard of the same user read it; another
// local user can read neither and is refused (embedded-password.ts).

/**
 * pglite-socket's default of 1 breaks any pool. PGlite runs one query at a
 * time whatever the count; connections only queue, so the dashboard's pools
 * and a CLI's together stay within this.
 */
export const EMBEDDED_MAX_CONNECTIONS = 24;

/**
 * Postgres settings the embedded database starts with, beside PGlite's own
 * (`PGlite.defaultStartParams`). Its WebAssembly heap is this process's memory,
 * grows to what the database has touched and never gives it back: Postgres'
 * default 128 MB of shared buffers made it 188 MB where 16 MB leaves it at its
 * initial 128 MB, and a stored run's process ~60 to 100 MB smaller. The operating
 * system's file cache still holds the data folder, so a page the buffers let go
 * is read back from memory.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = { shared_buffers: "16MB" };

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

interface Advert {
  port: number;
  pid: number;
  /** Absent in the advert of a server started by an older version (which asked for none). */
  password?: string;
}

function advertFile(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.server.json`);
}

function urlFor(port: number, password: string | undefined): string {
  const user = password === undefined ? "postgres" : `postgres:${encodeURIComponent(password)}`;
  return `postgres://${user}@127.0.0.1:${port}/postgres`;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The URL of the server that already serves `dataDir`, if one is running. */
export async function findEmbeddedServer(dataDir: string): Promise<string | undefined> {
  const advert = await readFile(advertFile(dataDir), "utf8")
    .then((text) => JSON.parse(text) as Advert)
    .catch(() => undefined);
  if (!advert || !alive(advert.pid) || !(await canConnect(advert.port))) return undefined;
  return urlFor(advert.port, advert.password);
}

/** A port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface EmbeddedServerOptions {
  dataDir: string;
  port?: number;
  migrate?: boolean;
}

/**
 * Serves `dataDir` from the calling thread (`startEmbeddedServer`, embedded-thread.ts, calls it
 * on a thread of its own). With `migrate`, applies the migrations before anyone else can connect:
 * PGlite is one session, so Postgres' advisory lock cannot keep two processes from migrating at
 * once, and the server's owner must do it.
 */
export async function serveEmbedded(input: EmbeddedServerOptions): Promise<EmbeddedServer> {
  // The files are the database: only their owner may read them (a folder
  // made by an older version, or under a loose umask, is closed too).
  await mkdir(input.dataDir, { recursive: true, mode: 0o700 });
  await chmod(input.dataDir, 0o700);
  const settings = Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => [
    "-c",
    `${name}=${value}`,
  ]);
  const db = await PGlite.create(input.dataDir, {
    startParams: [...PGlite.defaultStartParams, ...settings],
  });
  const password = randomBytes(24).toString("base64url");
  const port = input.port ?? (await freePort());
  const server = new PGLiteSocketServer({
    db,
    port,
    host: "127.0.0.1",
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  serializeExtendedProtocol(server);
  requirePassword(server, password);
  await server.start();
  const url = urlFor(port, password);
  if (input.migrate) {
    try {
      await withAdapter(url, applyMigrations);
    } catch (error) {
      await server.stop();
      await db.close();
      throw error;
    }
  }
  const advert = advertFile(input.dataDir);
  // Written whole under another name, then renamed: a reader never sees half
  // of it, and the file is 0600 from its first byte (writeFile's mode only
  // applies to a file it creates).
  const partial = `${advert}.${process.pid}.tmp`;
  await rm(partial, { force: true });
  await writeFile(partial, JSON.stringify({ port, pid: process.pid, password } satisfies Advert), {
    mode: 0o600,
  });
  await rename(partial, advert);
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      await rm(advert, { force: true });
    },
  };
}
