import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapterFor, parseDatabaseUrl } from "../../lib/store/connection";
import { applyMigrations, MIGRATIONS_DIR } from "../../lib/store/schema-engine";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// A migration is a Postgres script, not a list of statements joined by `;`: a `;` inside a
// comment, a quoted string, a quoted name or a dollar-quoted function body is part of it.
const SCRIPT = `-- Notes; kept for the reader: the semicolons here are not statement ends.
/* A block comment; with a semicolon, /* nested; */ still a comment; */
CREATE TABLE "semi;colons" (
  "id" SERIAL PRIMARY KEY,
  "note" TEXT NOT NULL DEFAULT 'a; b ''c;'' d'
);
CREATE FUNCTION "semi_count"() RETURNS integer AS $body$
BEGIN
  -- a comment inside the body; too
  RETURN (SELECT count(*) FROM "semi;colons");
END;
$body$ LANGUAGE plpgsql;
INSERT INTO "semi;colons" ("note") VALUES (E'escaped \\'; quote'), ($$dollar; text$$);
`;

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-migrations-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  await mkdir(path.join(dir, "29991231000000_semicolons"));
  await writeFile(path.join(dir, "29991231000000_semicolons", "migration.sql"), SCRIPT);
});
afterAll(async () => {
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a migration whose comments, strings and function bodies hold `;`", () => {
  it("is applied whole, as Postgres reads it", async () => {
    const applied = await applyMigrations(adapterFor(db.url, { max: 1 }), dir);
    expect(applied.at(-1)).toBe("29991231000000_semicolons");

    const client = new pg.Client(parseDatabaseUrl(db.url));
    await client.connect();
    try {
      await client.query(`INSERT INTO "semi;colons" DEFAULT VALUES`);
      const rows = await client.query(`SELECT "note" FROM "semi;colons" ORDER BY "id"`);
      expect(rows.rows.map((r) => r.note)).toEqual([
        "escaped '; quote",
        "dollar; text",
        "a; b 'c;' d",
      ]);
      const count = await client.query(`SELECT "semi_count"() AS n`);
      expect(count.rows[0].n).toBe(3);
    } finally {
      await client.end();
    }
  });
});
