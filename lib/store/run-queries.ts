import type { EvalStatus } from "../engine/results/report";
import type { Scale } from "../config/types";
import { Prisma, type PrismaClient } from "./generated/client";
import type { RunStatus } from "./run-store";
import { deferReasonsOf, keptFiguresOf } from "./run-figures";

// The run-history reads behind the dashboard: the trend of one eval across a
// suite's runs, one page of a run's results (filtered, sorted and paged on the
// server: a run can hold 10,000 results), and a run's figures per judge model.
// Raw SQL through tagged templates: every value is a bound parameter; the only
// SQL text chosen at run time comes from the fixed SORT_COLUMNS table below.
// `npm run bench:store` times these three on a million criterion results.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One eval result of one run: a point of a trend line. */
export interface TrendPoint {
  runId: string;
  runCreatedAt: Date;
  runStatus: RunStatus;
  /** The engine's stable id of the result: the eval name plus its cell coordinates. */
  resultKey: string;
  name: string;
  cellModel: string | null;
  cellPrompt: number | null;
  judgeModel: string | null;
  status: EvalStatus;
  score: number | null;
  threshold: number;
}

/** A result row as the run's table shows it (without the full EvalResult document). */
export interface ResultRow {
  id: string;
  resultKey: string;
  evalName: string;
  name: string;
  cellModel: string | null;
  cellPrompt: number | null;
  judgeModel: string | null;
  status: EvalStatus;
  vacuous: boolean;
  score: number | null;
  threshold: number;
  reason: string;
  costUsd: number;
  judgeCalls: number;
  latencyMs: number;
  createdAt: Date;
  /** A pairwise eval's overall winner and its side labels: its outcome is a winner, not a score against a threshold. */
  comparison: { winner: "A" | "B" | "tie" | "uncertain"; labels: { a: string; b: string } } | null;
  /** A category review's decision (pass, conditional, fail, human_review): likewise not a score. */
  decision: string | null;
  /**
   * The rubric's scale (letter, likert, ...), so the score and threshold read as on the result
   * page; null for results stored without it.
   */
  scale: Scale | null;
}

export type ResultSortKey = "name" | "status" | "score" | "costUsd" | "latencyMs" | "createdAt";
export interface ResultSort {
  by: ResultSortKey;
  direction: "asc" | "desc";
}

export interface ResultsPage {
  rows: ResultRow[];
  /** Results matching the status and search filters, over all pages. */
  total: number;
  /** Pass back as `cursor` for the page after this one; null on the last page. */
  nextCursor: string | null;
}

export interface ModelSummary {
  /** null for results graded by no judge model. */
  judgeModel: string | null;
  results: number;
  passed: number;
  failed: number;
  judgeErrors: number;
  deferred: number;
  skipped: number;
  /** Mean over the results that have a score; null when none has. */
  meanScore: number | null;
  costUsd: number;
  judgeCalls: number;
}

// Sort keys map to fixed column names; `nullable` columns sort their nulls
// last in both directions (an ungraded result is never the "best" or "worst").
const SORT_COLUMNS: Record<
  ResultSortKey,
  { column: string; nullable: boolean; kind: "text" | "number" | "date" }
> = {
  name: { column: "name", nullable: false, kind: "text" },
  status: { column: "status", nullable: false, kind: "text" },
  score: { column: "score", nullable: true, kind: "number" },
  costUsd: { column: "cost_usd", nullable: false, kind: "number" },
  latencyMs: { column: "latency_ms", nullable: false, kind: "number" },
  createdAt: { column: "created_at", nullable: false, kind: "date" },
};

const DEFAULT_SORT: ResultSort = { by: "name", direction: "asc" };
const MAX_PAGE_SIZE = 500;

interface Cursor {
  by: ResultSortKey;
  direction: "asc" | "desc";
  /** The last row's sort value (ISO string for dates), and its id as the tie-breaker. */
  value: string | number | null;
  id: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** A cursor comes back from a URL: anything malformed, or made for another sort, is refused. */
function decodeCursor(text: string, sort: ResultSort): Cursor {
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
    !valueOk
  ) {
    throw new RangeError("invalid cursor: it is malformed or belongs to another sort order");
  }
  return c as Cursor;
}

function cursorValue(row: ResultRow, by: ResultSortKey): Cursor["value"] {
  const value = row[by];
  return value instanceof Date ? value.toISOString() : value;
}

function sortValueSql(value: Cursor["value"], kind: "text" | "number" | "date"): Prisma.Sql {
  if (kind === "date") return Prisma.sql`${value}::timestamptz`;
  if (kind === "number") return Prisma.sql`${value}::float8`;
  return Prisma.sql`${value}::text`;
}

/** A finished run's results of these statuses (all: undefined), from the figures it kept; undefined when it kept none. */
async function totalFromFigures(
  prisma: PrismaClient,
  runId: string,
  statuses: EvalStatus[] | undefined,
): Promise<number | undefined> {
  const kept = await keptFiguresOf(prisma, runId);
  if (!kept) return undefined;
  return statuses
    ? [...new Set(statuses)].reduce((n, s) => n + (kept.counts[s] ?? 0), 0)
    : kept.results;
}

export function createRunQueries(prisma: PrismaClient) {
  return {
    /**
     * The score and status of one eval in the newest `limit` runs of a suite
     * that graded it, newest run first: every cell of the eval, or only the
     * cell whose result key is `resultKey`. Within a run, cells come in
     * result-key order.
     */
    async evalTrend(input: {
      suiteName: string;
      evalName: string;
      resultKey?: string;
      limit: number;
    }): Promise<TrendPoint[]> {
      const limit = Math.max(0, Math.floor(input.limit));
      const key =
        input.resultKey === undefined
          ? Prisma.empty
          : Prisma.sql`AND e.result_key = ${input.resultKey}`;
      // The limit counts runs, not rows: a run that did not grade the eval
      // (a filtered run) is passed over rather than shown as a gap. With
      // eval_results(run_id, eval_name), the newest runs are probed one by
      // one, so the history page's 20-run charts cost 20 probes however long
      // the suite's history, not a read of the eval's every result.
      return prisma.$queryRaw<TrendPoint[]>`
        WITH picked AS (
          SELECT r.id, r.created_at, r.status
          FROM runs r
          JOIN suites s ON s.id = r.suite_id
          WHERE s.name = ${input.suiteName}
            AND EXISTS (SELECT 1 FROM eval_results e WHERE e.run_id = r.id AND e.eval_name = ${input.evalName} ${key})
          ORDER BY r.created_at DESC, r.id DESC
          LIMIT ${limit}
        )
        SELECT p.id::text AS "runId", p.created_at AS "runCreatedAt", p.status AS "runStatus",
               e.result_key AS "resultKey", e.name, e.cell_model AS "cellModel", e.cell_prompt AS "cellPrompt",
               e.judge_model AS "judgeModel", e.status, e.score, e.threshold
        FROM picked p
        JOIN eval_results e ON e.run_id = p.id AND e.eval_name = ${input.evalName} ${key}
        ORDER BY p.created_at DESC, p.id DESC, e.result_key`;
    },

    /**
     * One page of a run's results, with the total that match the filters.
     * `status` keeps only those statuses; `search` matches the result's name
     * (eval name and cell) case-insensitively; `cell` keeps exactly one matrix
     * cell (the heatmap's drill-down). Sorted by `sort` with the row
     * id as tie-breaker, so pages tile the results with no gap or repeat.
     * Page with `cursor` (the previous page's `nextCursor`; keyset, so it
     * skips no rows) or with `offset` (for "go to page n"). At most 500 rows
     * a page.
     */
    async runResultsPage(input: {
      runId: string;
      status?: EvalStatus | EvalStatus[];
      search?: string;
      /** Exactly one matrix cell: its judge model, candidate model and prompt position (null: the result has none on that axis). */
      cell?: { model: string | null; agent?: string | null; promptIndex: number | null };
      sort?: ResultSort;
      pageSize: number;
      cursor?: string;
      offset?: number;
    }): Promise<ResultsPage> {
      if (!UUID.test(input.runId)) return { rows: [], total: 0, nextCursor: null };
      const sort = input.sort ?? DEFAULT_SORT;
      const spec = SORT_COLUMNS[sort.by];
      const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(input.pageSize)));
      const cursor = input.cursor ? decodeCursor(input.cursor, sort) : undefined;
      const offset = cursor ? 0 : Math.max(0, Math.floor(input.offset ?? 0));

      const statuses =
        input.status === undefined
          ? undefined
          : Array.isArray(input.status)
            ? input.status
            : [input.status];
      const search = input.search?.trim();
      const filters = Prisma.join(
        [
          Prisma.sql`run_id = ${input.runId}::uuid`,
          ...(statuses
            ? [
                statuses.length
                  ? Prisma.sql`status IN (${Prisma.join(statuses)})`
                  : Prisma.sql`FALSE`,
              ]
            : []),
          // The search text is a value, and its LIKE wildcards are escaped: "50%" finds "50%".
          ...(search ? [Prisma.sql`name ILIKE ${`%${search.replace(/[\\%_]/g, "\\$&")}%`}`] : []),
          ...(input.cell
            ? [
                Prisma.sql`cell_model IS NOT DISTINCT FROM ${input.cell.model}::text AND cell_agent IS NOT DISTINCT FROM ${input.cell.agent ?? null}::text AND cell_prompt IS NOT DISTINCT FROM ${input.cell.promptIndex}::int`,
              ]
            : []),
        ],
        " AND ",
      );

      const column = Prisma.raw(spec.column);
      const dir = Prisma.raw(sort.direction === "asc" ? "ASC" : "DESC");
      const after = sort.direction === "asc" ? Prisma.raw(">") : Prisma.raw("<");
      const order = spec.nullable
        ? Prisma.sql`${column} ${dir} NULLS LAST, id ${dir}`
        : Prisma.sql`${column} ${dir}, id ${dir}`;
      let keyset = Prisma.empty;
      if (cursor) {
        const id = Prisma.sql`${cursor.id}::uuid`;
        // Nulls come last: after a non-null value come the larger (or smaller)
        // values and then every null; after a null, only the nulls left.
        keyset =
          cursor.value === null
            ? Prisma.sql`AND ${column} IS NULL AND id ${after} ${id}`
            : spec.nullable
              ? Prisma.sql`AND ((${column}, id) ${after} (${sortValueSql(cursor.value, spec.kind)}, ${id}) OR ${column} IS NULL)`
              : Prisma.sql`AND (${column}, id) ${after} (${sortValueSql(cursor.value, spec.kind)}, ${id})`;
      }

      // The page's ids are picked by a sort over (sort column, id) only, and
      // its columns fetched afterwards: sorting 10,000 whole rows spills to
      // disk under the default work_mem, and doubles the time of a deep page.
      // A finished run kept its counts per status (run-figures.ts): without a search or a cell, the
      // total is read from them, not counted over a million rows again.
      const keptTotal =
        search || input.cell ? undefined : await totalFromFigures(prisma, input.runId, statuses);
      const [rows, counted] = await Promise.all([
        prisma.$queryRaw<ResultRow[]>`
          SELECT id::text AS id, result_key AS "resultKey", eval_name AS "evalName", name, cell_model AS "cellModel",
                 cell_prompt AS "cellPrompt", judge_model AS "judgeModel", status, vacuous, score, threshold,
                 -- Beside its badge a deferral's note gives its cause without "deferred:" again; a judge error stored by an
                 -- earlier version carries a raw prefix the badge already says (stored-result.ts). A skip keeps its cause's label.
                 CASE WHEN status = 'judge_error' THEN regexp_replace(reason, '^judge_error: ', '')
                      WHEN status = 'deferred' THEN coalesce(note, reason) ELSE reason END AS reason,
                 cost_usd AS "costUsd", judge_calls AS "judgeCalls", latency_ms AS "latencyMs", created_at AS "createdAt",
                 CASE WHEN data->'pairwise' IS NOT NULL
                      THEN jsonb_build_object('winner', data->'pairwise'->'result'->'overall_winner', 'labels', data->'pairwise'->'labels') END AS comparison,
                 data->'review'->'report'->'decision'->>'status' AS decision, data->'scale' AS scale
          FROM eval_results
          JOIN (SELECT id FROM eval_results WHERE ${filters} ${keyset} ORDER BY ${order} LIMIT ${pageSize + 1} OFFSET ${offset}) page USING (id)
          ORDER BY ${order}`,
        keptTotal !== undefined
          ? [{ total: keptTotal }]
          : prisma.$queryRaw<
              { total: number }[]
            >`SELECT count(*)::int AS total FROM eval_results WHERE ${filters}`,
      ]);
      // One row more than a page tells whether another page follows.
      const more = rows.length > pageSize;
      const page = more ? rows.slice(0, pageSize) : rows;
      const last = page.at(-1);
      return {
        rows: page,
        total: counted[0]?.total ?? 0,
        nextCursor:
          more && last
            ? encodeCursor({
                by: sort.by,
                direction: sort.direction,
                value: cursorValue(last, sort.by),
                id: last.id,
              })
            : null,
      };
    },

    /**
     * Why a run's deferred results were not graded: each distinct cause with how many it deferred,
     * the commonest first (at most 3).
     */
    async deferReasons(runId: string): Promise<{ reason: string; count: number }[]> {
      if (!UUID.test(runId)) return [];
      // A finished run kept them (run-figures.ts).
      return (await keptFiguresOf(prisma, runId))?.deferReasons ?? deferReasonsOf(prisma, runId);
    },

    /** A run's results per judge model: counts by outcome, mean score, cost and calls; by model name. */
    async runModelSummary(input: { runId: string }): Promise<ModelSummary[]> {
      if (!UUID.test(input.runId)) return [];
      return prisma.$queryRaw<ModelSummary[]>`
        SELECT judge_model AS "judgeModel",
               count(*)::int AS results,
               (count(*) FILTER (WHERE status = 'passed'))::int AS passed,
               (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
               (count(*) FILTER (WHERE status = 'judge_error'))::int AS "judgeErrors",
               (count(*) FILTER (WHERE status = 'deferred'))::int AS deferred,
               (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped,
               avg(score) AS "meanScore",
               coalesce(sum(cost_usd), 0)::float8 AS "costUsd",
               coalesce(sum(judge_calls), 0)::int AS "judgeCalls"
        FROM eval_results
        WHERE run_id = ${input.runId}::uuid
        GROUP BY judge_model
        ORDER BY judge_model NULLS LAST`;
    },
  };
}

export type RunQueries = ReturnType<typeof createRunQueries>;
