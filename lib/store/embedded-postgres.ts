import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { serializeExtendedProtocol } from "./serialize-extended-protocol";
import { withAdapter } from "./connection";
import { applyMigrations } from "./schema-engine";

// The embedded default database: PGlite (Postgres compiled to WebAssembly) on
// a data folder, served over the Postgres wire protocol by pglite-socket, so
// the app talks to it exactly as to a real server. One server per data folder:
// the one that holds it writes server.json beside it, and other processes
// (the CLI while the dashboard runs) connect to that instead of opening the
// folder a second time.

/**
 * pglite-socket's default of 1 breaks any pool. PGlite runs one query at a
 * time whatever the count; connections only queue, so the dashboard's pools
 * and a CLI's together stay within this.
 */
export const EMBEDDED_MAX_CONNECTIONS = 24;

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

interface Advert {
  port: number;
  pid: number;
}

function advertFile(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.server.json`);
}

function urlFor(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
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
  return urlFor(advert.port);
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

/**
 * Serves `dataDir`. With `migrate`, applies the migrations before anyone else
 * can connect: PGlite is one session, so Postgres' advisory lock cannot keep
 * two processes from migrating at once, and the server's owner must do it.
 */
export async function startEmbeddedServer(input: {
  dataDir: string;
  port?: number;
  migrate?: boolean;
}): Promise<EmbeddedServer> {
  await mkdir(input.dataDir, { recursive: true });
  const db = await PGlite.create(input.dataDir);
  const port = input.port ?? (await freePort());
  const server = new PGLiteSocketServer({
    db,
    port,
    host: "127.0.0.1",
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  serializeExtendedProtocol(server);
  await server.start();
  if (input.migrate) {
    try {
      await withAdapter(urlFor(port), applyMigrations);
    } catch (error) {
      await server.stop();
      await db.close();
      throw error;
    }
  }
  const advert = advertFile(input.dataDir);
  await writeFile(advert, JSON.stringify({ port, pid: process.pid } satisfies Advert));
  let stopped = false;
  return {
    url: urlFor(port),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      await rm(advert, { force: true });
    },
  };
}
