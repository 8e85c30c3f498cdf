import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import {
  applyMigrations,
  diffMigrationsToSchema,
  MIGRATIONS_DIR,
} from "../../lib/store/schema-engine";
import { adapterFor, parseDatabaseUrl } from "../../lib/store/connection";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await db?.close();
});

describe("migrations", () => {
  it("apply to an empty database, then again as a no-op, recording Prisma's history", async () => {
    const first = await applyMigrations(adapterFor(db.url, { max: 1 }));
    expect(first.length).toBeGreaterThan(0);
    expect(first[0]).toMatch(/^\d{14}_init$/);
    const second = await applyMigrations(adapterFor(db.url, { max: 1 }));
    expect(second).toEqual([]);

    const client = new pg.Client(parseDatabaseUrl(db.url));
    await client.connect();
    const history = await client.query(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    const tables = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    await client.end();
    expect(history.rows.map((r) => r.migration_name)).toEqual(first);
    expect(history.rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        "suites",
        "suite_versions",
        "runs",
        "eval_results",
        "criterion_results",
        "judge_calls",
        "run_calls",
        "baselines",
      ]),
    );
  });

  it("answer an up-to-date database from its history alone, and apply a migration added later", async () => {
    await applyMigrations(adapterFor(db.url, { max: 1 }));
    // Statements sent: an up-to-date database needs one query, and no schema engine (whose
    // WebAssembly stayed in the process's memory for the whole run).
    let statements = 0;
    const counting = () => {
      const factory = adapterFor(db.url, { max: 1 });
      const connect = factory.connect.bind(factory);
      factory.connect = async () => {
        const adapter = await connect();
        for (const name of ["queryRaw", "executeRaw", "executeScript"] as const) {
          const inner = adapter[name].bind(adapter) as (...args: unknown[]) => Promise<never>;
          adapter[name] = (async (...args: unknown[]) => {
            statements++;
            return inner(...args);
          }) as never;
        }
        return adapter;
      };
      return factory;
    };
    expect(await applyMigrations(counting())).toEqual([]);
    expect(statements).toBe(1);

    const dir = await mkdtemp(path.join(tmpdir(), "rs-migrations-"));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      const added = "29991231000000_later";
      await mkdir(path.join(dir, added));
      await writeFile(path.join(dir, added, "migration.sql"), "CREATE TABLE later_one (id int);\n");
      statements = 0;
      expect(await applyMigrations(counting(), dir)).toEqual([added]);
      expect(statements).toBeGreaterThan(1);
      const client = new pg.Client(parseDatabaseUrl(db.url));
      await client.connect();
      const table = await client.query("SELECT to_regclass('later_one') AS t");
      await client.query("DROP TABLE later_one");
      await client.query("DELETE FROM _prisma_migrations WHERE migration_name = $1", [added]);
      await client.end();
      expect(table.rows[0].t).toBe("later_one");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("match prisma/schema.prisma: no migration is missing", async () => {
    const sql = await diffMigrationsToSchema(new PrismaPGlite(new PGlite()));
    expect(sql.trim().replace(/^-- This is an empty migration\.$/, "")).toBe("");
  });
});
