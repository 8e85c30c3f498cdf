import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/store/open-database";

// The embedded database's WebAssembly heap is the process's own memory and never shrinks: it
// starts with small shared buffers (16 MB, not Postgres' 128 MB), which kept a stored run's
// process ~60 to 100 MB smaller. Every process that serves a data folder (the CLI, a worker, the
// dashboard's server) opens it through openDatabase, on the database's own thread.

let dir: string;
let db: Database;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-embedded-settings-"));
  db = await openDatabase({ dataDir: path.join(dir, "pglite"), migrate: false });
}, 60_000);
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

async function show(name: string): Promise<string> {
  const rows = await db.prisma.$queryRawUnsafe<Record<string, string>[]>(`SHOW ${name}`);
  return Object.values(rows[0]!)[0]!;
}

it("starts the embedded database with 16 MB of shared buffers and PGlite's own settings", async () => {
  expect(db.source).toBe("owned");
  expect(await show("shared_buffers")).toBe("16MB");
  // WAL buffers follow shared buffers (1/32 of them) when left to Postgres.
  expect(await show("wal_buffers")).toBe("512kB");
  // PGlite's defaults are kept beside it.
  expect(await show("search_path")).toBe("public");
  expect(await show("max_parallel_workers_per_gather")).toBe("0");
}, 60_000);
