import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { applyMigrations, diffMigrationsToSchema } from "../../lib/store/schema-engine";
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

  it("match prisma/schema.prisma: no migration is missing", async () => {
    const sql = await diffMigrationsToSchema(new PrismaPGlite(new PGlite()));
    expect(sql.trim().replace(/^-- This is an empty migration\.$/, "")).toBe("");
  });
});
