import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedServer } from "../../lib/store/embedded-thread";
import { afterAll, beforeAll } from "vitest";
import {
  createPrismaClient,
  parseDatabaseUrl,
  withAdapter,
  type PrismaClient,
} from "../../lib/store/connection";
import { applyMigrations } from "../../lib/store/schema-engine";

// A fresh, empty database for one test file. By default an embedded PGlite
// server on a temporary folder, so `npm test` needs no server; with
// TEST_DATABASE_URL (set by .ci/run to a real Postgres 15) a new database
// created on that server and dropped afterwards.

export interface TestDatabase {
  url: string;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/** `migrate: false` gives an empty database (the migration tests); by default it is migrated, as the dashboard's would be. */
export async function createTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const migrate = options.migrate !== false;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `rs_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client(parseDatabaseUrl(serverUrl));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    if (migrate) await withAdapter(url.toString(), applyMigrations);
    return {
      url: url.toString(),
      kind: "postgres",
      async close() {
        const client = new pg.Client(parseDatabaseUrl(serverUrl));
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-test-db-"));
  const server = await startEmbeddedServer({ dataDir: path.join(dir, "pglite"), migrate });
  return {
    url: server.url,
    kind: "pglite",
    async close() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated test database and a Prisma client for the test file that calls
 * this at its top level: created before its tests, dropped after them.
 */
export function useTestDatabase(): { readonly url: string; readonly prisma: PrismaClient } {
  let db: TestDatabase | undefined;
  let prisma: PrismaClient | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url);
  }, 60_000);
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
  });
  return {
    get url() {
      return db!.url;
    },
    get prisma() {
      return prisma!;
    },
  };
}
