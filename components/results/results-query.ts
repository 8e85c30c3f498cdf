import * as z from "zod";
import { EVAL_STATUSES } from "../../lib/engine/results/report";
import type { Scale } from "../../lib/config/types";

// The results table's query, as it travels in the run page's URL and in the
// rows route (`GET /api/runs/<id>/results`): one schema for both, so a link
// someone shares and the requests the table makes while scrolling agree on
// what each parameter means.

/** The table's sort keys, as the URL and the rows route spell them (and the README lists them). */
export const SORT_KEYS = ["order", "name", "status", "score", "cost", "latency"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What each sort key sorts by in the store (its ResultSortKey; components do not import lib/store). */
export const SORT_COLUMN = {
  order: "suiteOrder",
  name: "name",
  status: "status",
  score: "score",
  cost: "costUsd",
  latency: "latencyMs",
} as const satisfies Record<SortKey, string>;

/** The names links used before the keys were the README's words: a shared `?sort=costUsd` still sorts by cost. */
const SORT_ALIASES: Record<string, SortKey> = { costUsd: "cost", latencyMs: "latency" };
const sortKey = (value: unknown) =>
  typeof value === "string" ? (SORT_ALIASES[value] ?? value) : value;
const SORT_MESSAGE = `must be one of ${SORT_KEYS.join(", ")}`;

/** Rows of one page of the table. */
export const RESULTS_PAGE_SIZE = 50;
/** The most rows one request of the rows route may ask for. */
export const MAX_ROWS_PER_REQUEST = 500;

/** A search or a model name: Postgres text cannot hold a NUL, so one is bad input, not a query. */
const TEXT_PARAM = z
  .string()
  .max(200)
  .refine((q) => !q.includes("\u0000"), "must not contain a NUL character");

/**
 * A keyset cursor (lib/store/result-cursor.ts: a row's sort value, id and place, base64url); the
 * store checks what is inside.
 */
const CURSOR_PARAM = z
  .string()
  .max(8000)
  .regex(/^[A-Za-z0-9_-]+$/, "must be a cursor from a page of this table");

// Anything unexpected in the URL falls back to the default rather than
// failing the page: these are links people edit and share.
export const TableQuerySchema = z.object({
  status: z.enum(EVAL_STATUSES).optional().catch(undefined),
  q: TEXT_PARAM.optional().catch(undefined),
  /**
   * One matrix cell (the heatmap's drill-down): either given means the cell filter is on, and a
   * missing axis is "none".
   */
  model: TEXT_PARAM.optional().catch(undefined),
  /** The cell's candidate model (matrix.agents). */
  agent: TEXT_PARAM.optional().catch(undefined),
  prompt: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
  // The suite's order (numbers as numbers: i2 before i10), as the CLI, the CSV and the reports list a run.
  sort: z.preprocess(sortKey, z.enum(SORT_KEYS)).catch("order"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  /** Where the table opens (keyset): the page after this row's cursor, ... */
  after: CURSOR_PARAM.optional().catch(undefined),
  /** ... the page before it, ... */
  before: CURSOR_PARAM.optional().catch(undefined),
  /** ... or the last page (none of them: the first). */
  last: z.literal("1").optional().catch(undefined),
});
/** The page's query, and a `sort` it did not know (shown as such: the table fell back to suite order). */
export type TableQuery = z.infer<typeof TableQuerySchema> & { unknownSort?: string };

// The rows route is an API: a bad offset is the caller's mistake, said so with a 400.
export const RowsRequestSchema = z.object({
  status: z.enum(EVAL_STATUSES).optional(),
  q: TEXT_PARAM.optional(),
  model: TEXT_PARAM.optional(),
  agent: TEXT_PARAM.optional(),
  prompt: z.coerce.number().int().min(1).max(100_000).optional(),
  sort: z.preprocess(sortKey, z.enum(SORT_KEYS, { error: SORT_MESSAGE }).default("order")),
  dir: z.enum(["asc", "desc"]).default("asc"),
  /** The page after this cursor (a page's `nextCursor`), or before one (`prevCursor`), or the last. */
  after: CURSOR_PARAM.optional(),
  before: CURSOR_PARAM.optional(),
  last: z.literal("1", { error: "must be 1 (the last page)" }).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_ROWS_PER_REQUEST).default(RESULTS_PAGE_SIZE),
  /** Paging by offset is gone: a script that still sends one is told, not handed page 1 for ever. */
  offset: z
    .undefined({ error: "paging is by cursor: after=<nextCursor>, before=<prevCursor> or last=1" })
    .optional(),
});
export type RowsRequest = z.infer<typeof RowsRequestSchema>;

type SearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** The first value of each parameter, empty values dropped (an empty search box means no search). */
export function firstValues(params: SearchParams): Record<string, string> {
  const entries =
    params instanceof URLSearchParams
      ? [...params.keys()].map((k) => [k, params.get(k) ?? undefined] as const)
      : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  return Object.fromEntries(
    entries.filter((e): e is readonly [string, string] => typeof e[1] === "string" && e[1] !== ""),
  );
}

export function parseTableQuery(params: SearchParams): TableQuery {
  const values = firstValues(params);
  const query: TableQuery = TableQuerySchema.parse({ sort: undefined, dir: undefined, ...values });
  const asked = values.sort;
  return asked !== undefined && sortKey(asked) !== query.sort
    ? { ...query, unknownSort: asked }
    : query;
}

/** One row of a run's results table (plain data, picked from the store's ResultRow). */
export interface ResultRowView {
  resultKey: string;
  name: string;
  status: string;
  vacuous: boolean;
  score: number | null;
  threshold: number;
  reason: string;
  costUsd: number;
  /** Judge requests sent (none for a deferred result): its latency reads "—" without one. */
  judgeCalls: number;
  latencyMs: number;
  /** A comparison's winner (its outcome, instead of a score against a threshold). */
  comparison: { winner: "A" | "B" | "tie" | "uncertain"; labels: { a: string; b: string } } | null;
  /** A review's decision, likewise. */
  decision: string | null;
  /** The rubric's scale: the score and threshold are shown on it (a letter rubric's threshold is "C", not 0.70). */
  scale: Scale | null;
}

/** One page of the table: its rows, where the first one is (0-based), how many match in all, and the cursors of the pages either side. */
export interface ResultRowsResponse {
  firstIndex: number;
  total: number;
  rows: ResultRowView[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/** Only the fields the table shows cross to the browser (the store's row has more). */
export function toResultRowView(row: ResultRowView): ResultRowView {
  return {
    resultKey: row.resultKey,
    name: row.name,
    status: row.status,
    vacuous: row.vacuous,
    score: row.score,
    threshold: row.threshold,
    reason: row.reason,
    costUsd: row.costUsd,
    judgeCalls: row.judgeCalls,
    latencyMs: row.latencyMs,
    comparison: row.comparison,
    decision: row.decision,
    scale: row.scale,
  };
}

/** The store's filter for one matrix cell, when the query names one (a missing axis meaning "none"). */
export function cellFilter(
  query: Pick<TableQuery, "model" | "agent" | "prompt">,
): { model: string | null; agent: string | null; promptIndex: number | null } | undefined {
  return query.model !== undefined || query.agent !== undefined || query.prompt !== undefined
    ? { model: query.model ?? null, agent: query.agent ?? null, promptIndex: query.prompt ?? null }
    : undefined;
}

function filterParams(
  query: Pick<TableQuery, "status" | "q" | "model" | "agent" | "prompt" | "sort" | "dir">,
): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (query.q) params.set("q", query.q);
  if (query.agent !== undefined) params.set("agent", query.agent);
  if (query.model !== undefined) params.set("model", query.model);
  if (query.prompt !== undefined) params.set("prompt", String(query.prompt));
  if (query.sort !== "order") params.set("sort", query.sort);
  if (query.dir !== "asc") params.set("dir", query.dir);
  return params;
}

/** Where a page of the table starts: the first page, the last, or after or before a row's cursor. */
export type TablePosition = { after: string } | { before: string } | { last: true } | "first";

/** The position a query opens at (a cursor wins over `last`, `after` over `before`). */
export function positionOf(query: Pick<TableQuery, "after" | "before" | "last">): TablePosition {
  if (query.after) return { after: query.after };
  if (query.before) return { before: query.before };
  return query.last ? { last: true } : "first";
}

/** The store's paging input for a position. */
export function pagingOf(position: TablePosition): {
  cursor?: string;
  before?: string;
  last?: boolean;
} {
  if (position === "first") return {};
  if ("after" in position) return { cursor: position.after };
  return "before" in position ? { before: position.before } : { last: true };
}

/**
 * The URL of the run page for a query at a position (the first page unless given), so filters,
 * sorting and position are links (and survive a reload).
 */
export function queryHref(
  runId: string,
  query: TableQuery,
  change: Partial<Omit<TableQuery, "after" | "before" | "last">>,
  position: TablePosition = "first",
): string {
  const params = filterParams({ ...query, ...change });
  if (position !== "first") {
    if ("after" in position) params.set("after", position.after);
    else if ("before" in position) params.set("before", position.before);
    else params.set("last", "1");
  }
  const text = params.toString();
  return `/runs/${runId}${text ? `?${text}` : ""}#results`;
}

export function resultHref(runId: string, resultKey: string): string {
  return `/runs/${runId}/results/${encodeURIComponent(resultKey)}`;
}
