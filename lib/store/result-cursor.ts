import { Prisma } from "./generated/client";
import { UUID } from "./uuid";

// The results table's keyset cursors: a page starts right after (or ends right before) one row,
// named by its sort value and id, so a deep page of a million results is read from the index
// where the row sits, as fast as the first, instead of counting OFFSET rows past it. A cursor also
// carries the row's place in the order (0-based), which the table shows ("Rows 951–1,000 of …")
// without counting the rows before it.

export type ResultSortKey =
  "suiteOrder" | "name" | "status" | "score" | "costUsd" | "latencyMs" | "createdAt";
export interface ResultSort {
  by: ResultSortKey;
  direction: "asc" | "desc";
}

type SortKind = "text" | "number" | "date";

// Sort keys map to fixed column names; `nullable` columns sort their nulls
// last in both directions (an ungraded result is never the "best" or "worst").
export const SORT_COLUMNS: Record<
  ResultSortKey,
  { column: string; nullable: boolean; kind: SortKind }
> = {
  // The suite's order (suite-order-key.ts, indexed with the run): what the CLI, CSV and reports use.
  suiteOrder: { column: "suite_order", nullable: false, kind: "text" },
  name: { column: "name", nullable: false, kind: "text" },
  status: { column: "status", nullable: false, kind: "text" },
  score: { column: "score", nullable: true, kind: "number" },
  costUsd: { column: "cost_usd", nullable: false, kind: "number" },
  latencyMs: { column: "latency_ms", nullable: false, kind: "number" },
  createdAt: { column: "created_at", nullable: false, kind: "date" },
};

export interface Cursor {
  by: ResultSortKey;
  direction: "asc" | "desc";
  /** The row's sort value (ISO string for dates), and its id as the tie-breaker. */
  value: string | number | null;
  id: string;
  /** The row's place in the order, 0-based (what the table numbers it, less one). */
  index: number;
}

/** The largest place a cursor may claim (a run holds at most tens of millions of results). */
const MAX_INDEX = 1_000_000_000;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** A cursor comes back from a URL: anything malformed, or made for another sort, is refused. */
export function decodeCursor(text: string, sort: ResultSort): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const c = parsed as Partial<Cursor> | undefined;
  const spec = SORT_COLUMNS[sort.by];
  const valueOk =
    c?.value === null
      ? spec.nullable
      : spec.kind === "number"
        ? typeof c?.value === "number"
        : typeof c?.value === "string" &&
          (spec.kind === "text" || !Number.isNaN(Date.parse(c.value)));
  if (
    !c ||
    c.by !== sort.by ||
    c.direction !== sort.direction ||
    typeof c.id !== "string" ||
    !UUID.test(c.id) ||
    !Number.isSafeInteger(c.index) ||
    c.index! < 0 ||
    c.index! > MAX_INDEX ||
    !valueOk
  ) {
    throw new RangeError("invalid cursor: it is malformed or belongs to another sort order");
  }
  return c as Cursor;
}

/** The cursor of a row at `index` under `sort`. */
export function cursorOf(
  row: { id: string } & Record<ResultSortKey, unknown>,
  sort: ResultSort,
  index: number,
): string {
  const value = row[sort.by];
  return encodeCursor({
    by: sort.by,
    direction: sort.direction,
    value: value instanceof Date ? value.toISOString() : (value as string | number | null),
    id: row.id,
    index,
  });
}

function valueSql(value: Cursor["value"], kind: SortKind): Prisma.Sql {
  if (kind === "date") return Prisma.sql`${value}::timestamptz`;
  if (kind === "number") return Prisma.sql`${value}::float8`;
  return Prisma.sql`${value}::text`;
}

/**
 * The ORDER BY of a sort, and the WHERE that keeps the rows after a cursor in it. `reversed`
 * walks the same order backwards (the page before a cursor, the last page): every direction
 * flipped, and a nullable column's nulls first instead of last.
 */
export function keysetSql(input: { sort: ResultSort; reversed: boolean; after?: Cursor }): {
  order: Prisma.Sql;
  where: Prisma.Sql;
} {
  const spec = SORT_COLUMNS[input.sort.by];
  const ascending = (input.sort.direction === "asc") !== input.reversed;
  const nullsLast = !input.reversed;
  const column = Prisma.raw(spec.column);
  const dir = Prisma.raw(ascending ? "ASC" : "DESC");
  const order = spec.nullable
    ? Prisma.sql`${column} ${dir} NULLS ${Prisma.raw(nullsLast ? "LAST" : "FIRST")}, id ${dir}`
    : Prisma.sql`${column} ${dir}, id ${dir}`;
  const cursor = input.after;
  if (!cursor) return { order, where: Prisma.empty };
  const cmp = Prisma.raw(ascending ? ">" : "<");
  const id = Prisma.sql`${cursor.id}::uuid`;
  const tuple = Prisma.sql`(${column}, id) ${cmp} (${valueSql(cursor.value, spec.kind)}, ${id})`;
  let where: Prisma.Sql;
  if (!spec.nullable) where = tuple;
  else if (cursor.value === null)
    // After a null: with nulls last only the nulls left; with nulls first, those and every value.
    where = nullsLast
      ? Prisma.sql`${column} IS NULL AND id ${cmp} ${id}`
      : Prisma.sql`((${column} IS NULL AND id ${cmp} ${id}) OR ${column} IS NOT NULL)`;
  // After a value: the values beyond it, then (nulls last) every null.
  else where = nullsLast ? Prisma.sql`(${tuple} OR ${column} IS NULL)` : tuple;
  return { order, where: Prisma.sql`AND ${where}` };
}
