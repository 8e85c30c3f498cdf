import { mkdtemp, rm, stat, readFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "../../lib/store/connection";
import { findEmbeddedServer, type EmbeddedServer } from "../../lib/store/embedded-postgres";
import { startEmbeddedServer } from "../../lib/store/embedded-thread";
import { openDatabase } from "../../lib/store/open-database";

// The embedded database is a server on 127.0.0.1 that any local user can
// reach: it must refuse a connection that does not bring the data folder's
// secret, and the CLI, workers and dashboard (which find it through the
// folder) must still get in.

let dir: string;
let dataDir: string;
let server: EmbeddedServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-embedded-auth-"));
  dataDir = path.join(dir, "pglite");
  server = await startEmbeddedServer({ dataDir, migrate: true });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function connectWith(config: pg.ClientConfig): Promise<string> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>("select 1 as n");
    return `connected ${rows[0]!.n}`;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe("the embedded database's password", () => {
  it("refuses a connection without a password, as any local user would try", async () => {
    const { password: _password, ...withoutPassword } = parseDatabaseUrl(server.url);
    expect(await connectWith(withoutPassword)).toMatch(/^refused: .*password/);
  });

  it("refuses a wrong password", async () => {
    const config = parseDatabaseUrl(server.url);
    expect(await connectWith({ ...config, password: `${config.password}x` })).toMatch(
      /^refused: password authentication failed/,
    );
  });

  it("lets in the URL it gives, and the one another process finds through the data folder", async () => {
    expect(await connectWith(parseDatabaseUrl(server.url))).toBe("connected 1");
    const found = await findEmbeddedServer(dataDir);
    expect(found).toBe(server.url);
    // What the CLI does while the dashboard runs: opens the folder's server, not a second one.
    const db = await openDatabase({ dataDir });
    try {
      expect(db.source).toBe("shared");
      expect(await db.prisma.suite.count()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("keeps the secret and the files to their owner (0600 and 0700)", async () => {
    const advert = path.join(dir, "pglite.server.json");
    expect((await stat(advert)).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const { password } = JSON.parse(await readFile(advert, "utf8")) as { password: string };
    expect(password.length).toBeGreaterThanOrEqual(32);
  });

  it("drops a client that sends garbage or nothing, and still serves the next", async () => {
    const garbage = await new Promise<string>((resolve) => {
      const socket = net.connect(parseDatabaseUrl(server.url).port, "127.0.0.1");
      let answer = "";
      socket.on("data", (data) => (answer += data.toString("latin1")));
      socket.on("close", () => resolve(answer));
      socket.on("connect", () => socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])));
    });
    expect(garbage).toContain("invalid startup packet");
    expect(await connectWith(parseDatabaseUrl(server.url))).toBe("connected 1");
  });
});
