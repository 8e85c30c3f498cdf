import type { EvalStatus } from "../engine/results/report";
import type { Scale } from "../config/types";
import { Prisma, type PrismaClient } from "./generated/client";
import type { RunStatus } from "./run-store";
import { deferReasonsOf, keptFiguresOf } from "./run-figures";
import { cursorOf, decodeCursor, keysetSql, type ResultSort } from "./result-cursor";
import { UUID } from "./uuid";

// The run-history reads behind the dashboard: the trend of one eval across a
// suite's runs, one page of a run's results (filtered, sorted and paged on the
// server: a run can hold 10,000 results), and a run's figures per judge model.
// Raw SQL through tagged templates: every value is a bound parameter; the only
// SQL text chosen at run time comes from the fixed SORT_COLUMNS table below.
// `npm run bench:store` times these three on a million criterion results.

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
  /** The result's place in the suite (suite-order-key.ts): the table's default order. */
  suiteOrder: string;
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

export type { ResultSort, ResultSortKey } from "./result-cursor";

export interface ResultsPage {
  rows: ResultRow[];
  /** Results matching the status and search filters, over all pages. */
  total: number;
  /** The place of the first row in the order, 0-based (the table numbers it one more). */
  firstIndex: number;
  /** Pass back as `cursor` for the page after this one; null on the last page. */
  nextCursor: string | null;
  /** Pass back as `before` for the page before this one; null on the first page. */
  prevCursor: string | null;
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

const DEFAULT_SORT: ResultSort = { by: "suiteOrder", direction: "asc" };
const MAX_PAGE_SIZE = 500;

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
     * the suite's order (`suite_order`, as the CLI lists them), then by result key.
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
        ORDER BY p.created_at DESC, p.id DESC, e.suite_order, e.result_key`;
    },

    /**
     * One page of a run's results, with the total that match the filters.
     * `status` keeps only those statuses; `search` matches the result's name
     * (eval name and cell) case-insensitively; `cell` keeps exactly one matrix
     * cell (the heatmap's drill-down). Sorted by `sort` with the row
     * id as tie-breaker, so pages tile the results with no gap or repeat.
     * Paged by keyset only: `cursor` (a page's `nextCursor`) for the page after it, `before` (a
     * page's `prevCursor`) for the page before it, `last` for the last page; none of them for the
     * first. A deep page is read from the index where it starts, as fast as the first. At most
     * 500 rows a page. A malformed cursor, or one made for another sort, is a RangeError.
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
      before?: string;
      last?: boolean;
    }): Promise<ResultsPage> {
      const empty = { rows: [], total: 0, firstIndex: 0, nextCursor: null, prevCursor: null };
      if (!UUID.test(input.runId)) return empty;
      const sort = input.sort ?? DEFAULT_SORT;
      const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(input.pageSize)));
      const after = input.cursor ? decodeCursor(input.cursor, sort) : undefined;
      const before = !after && input.before ? decodeCursor(input.before, sort) : undefined;
      const last = !after && !before && input.last === true;
      // The page before a cursor, and the last page, walk the order backwards from there.
      const reversed = before !== undefined || last;

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
      const readPage = (walk: { reversed: boolean; after?: typeof after }) => {
        const { order, where } = keysetSql({ sort, ...walk });
        // The page's ids are picked by a sort over (sort column, id) only, and its columns
        // fetched afterwards: sorting 10,000 whole rows spills to disk under the default work_mem.
        return prisma.$queryRaw<ResultRow[]>`
          SELECT id::text AS id, result_key AS "resultKey", eval_name AS "evalName", name, cell_model AS "cellModel",
                 cell_prompt AS "cellPrompt", judge_model AS "judgeModel", status, vacuous, score, threshold,
                 -- Beside its badge a deferral's note gives its cause without "deferred:" again; a judge error stored by an
                 -- earlier version carries a raw prefix the badge already says (stored-result.ts). A skip keeps its cause's label.
                 CASE WHEN status = 'judge_error' THEN regexp_replace(reason, '^judge_error: ', '')
                      WHEN status = 'deferred' THEN coalesce(note, reason) ELSE reason END AS reason,
                 cost_usd AS "costUsd", judge_calls AS "judgeCalls", latency_ms AS "latencyMs", created_at AS "createdAt", suite_order AS "suiteOrder",
                 CASE WHEN data->'pairwise' IS NOT NULL
                      THEN jsonb_build_object('winner', data->'pairwise'->'result'->'overall_winner', 'labels', data->'pairwise'->'labels') END AS comparison,
                 data->'review'->'report'->'decision'->>'status' AS decision, data->'scale' AS scale
          FROM eval_results
          JOIN (SELECT id FROM eval_results WHERE ${filters} ${where} ORDER BY ${order} LIMIT ${pageSize + 1}) page USING (id)
          ORDER BY ${order}`;
      };

      // A finished run kept its counts per status (run-figures.ts): without a search or a cell, the
      // total is read from them, not counted over a million rows again.
      const keptTotal =
        search || input.cell ? undefined : await totalFromFigures(prisma, input.runId, statuses);
      const [read, counted] = await Promise.all([
        readPage({ reversed, ...(after ? { after } : before ? { after: before } : {}) }),
        keptTotal !== undefined
          ? [{ total: keptTotal }]
          : prisma.$queryRaw<
              { total: number }[]
            >`SELECT count(*)::int AS total FROM eval_results WHERE ${filters}`,
      ]);
      const total = counted[0]?.total ?? 0;
      // One row more than a page tells whether another page follows (or, backwards, precedes).
      const more = read.length > pageSize;
      let rows = more ? read.slice(0, pageSize) : read;
      if (reversed) rows = rows.reverse();
      let firstIndex: number;
      if (after) firstIndex = after.index + 1;
      else if (last) firstIndex = Math.max(0, total - rows.length);
      // Backwards: at the start once no row precedes the page (the first page may then be short).
      else if (before && more) firstIndex = Math.max(0, before.index - rows.length);
      else firstIndex = 0;
      const hasNext = reversed ? before !== undefined : more;
      const hasPrev = reversed ? more : after !== undefined;
      const first = rows[0];
      const final = rows.at(-1);
      return {
        rows,
        total,
        firstIndex,
        nextCursor: hasNext && final ? cursorOf(final, sort, firstIndex + rows.length - 1) : null,
        prevCursor: hasPrev && first ? cursorOf(first, sort, firstIndex) : null,
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
