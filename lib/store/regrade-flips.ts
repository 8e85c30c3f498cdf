import type { EvalResult } from "../engine/results/report";
import type { FlipCounts } from "../engine/results/flips-preview-types";
import { readStoredResult } from "../engine/results/stored-result";
import { flippedCriteria, type FlipKind } from "../engine/trust/regrade/flip-kind";
import { Prisma, type PrismaClient } from "./generated/client";
import { UUID } from "./uuid";

// The flips page of a regrade (a run whose `runs.regrade_of` names its source): each result
// beside the source's result of the same key, joined in SQL (the source's verdicts are read where
// they are stored, never copied), counted by kind and paged by keyset (regrade-views.ts hands
// these out with the regrade's other reads).

/** Flips first, then the other changes, the largest score move first. */
export const FLIPS_PAGE_SIZE = 20;
/** The flips page's filter menus list at most this many evals and candidate models. */
export const MAX_FILTER_OPTIONS = 200;

/** What the flips page filters by: an eval's name, a matrix cell's candidate model. */
export interface FlipFilter {
  eval?: string;
  agent?: string;
}

/** A hand count of a regrade against its source (of the results both hold), as the editor's preview counts. */
export type { FlipCounts };

/** One page of the flips: its pairs, where it starts (0-based) and the cursors of the pages either side. */
export interface FlipPage {
  pairs: FlipPair[];
  firstIndex: number;
  /** Pass back as `after` for the next page; null on the last. */
  nextCursor: string | null;
  /** Pass back as `before` for the page before; null on the first. */
  prevCursor: string | null;
}

/** One result of the regrade beside its source's: both verdicts whole (the candidate is the same). */
export interface FlipPair {
  kind: FlipKind;
  previous: EvalResult;
  current: EvalResult;
  /** The criteria whose pass/fail flipped (`flippedCriteria`), whatever the kind. */
  flippedCriteria: string[];
}

// `flipKindOf` (lib/engine/trust/regrade/flip-kind.ts) in SQL, over n (the regrade's result) and
// s (its source's); test/store/flip-kinds.test.ts holds the two to the same answers.
// Skipped (the budget, a cancel) or deferred in either run: neither a pass nor a fail, no flip.
const NOT_GRADED = Prisma.sql`(n.status IN ('skipped', 'deferred') OR s.status IN ('skipped', 'deferred'))`;
// A flip of the result, both graded: a change between passing and not passing.
const FLIP = Prisma.sql`(NOT ${NOT_GRADED} AND (n.status = 'passed') <> (s.status = 'passed'))`;
// A criterion graded pass or fail in both (matched by name) whose verdict differs.
const CRITERION_FLIP = Prisma.sql`EXISTS (
  SELECT 1 FROM jsonb_array_elements(coalesce(n.data -> 'criteria', '[]'::jsonb)) nc
  JOIN jsonb_array_elements(coalesce(s.data -> 'criteria', '[]'::jsonb)) sc ON sc ->> 'name' = nc ->> 'name'
  WHERE jsonb_typeof(nc -> 'passed') = 'boolean' AND jsonb_typeof(sc -> 'passed') = 'boolean'
    AND nc -> 'passed' <> sc -> 'passed')`;
/** Each criterion's name and pass/fail in the result `data` (a jsonb column): what a flip is decided by. */
export const criteriaVerdicts = (data: Prisma.Sql) =>
  Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('name', c -> 'name', 'passed', c -> 'passed')), '[]'::jsonb)
    FROM jsonb_array_elements(coalesce(${data} -> 'criteria', '[]'::jsonb)) c)`;
const MOVED = Prisma.sql`(n.score IS DISTINCT FROM s.score OR n.status <> s.status)`;
const KIND = Prisma.sql`CASE WHEN ${NOT_GRADED} THEN 'not_graded'
  WHEN ${FLIP} AND s.status = 'passed' THEN 'now_fail'
  WHEN ${FLIP} THEN 'now_pass'
  WHEN ${CRITERION_FLIP} THEN 'criteria'
  WHEN ${MOVED} THEN 'moved'
  ELSE 'unchanged' END`;
/** What the flips page lists: every result but the unchanged (`KIND <> 'unchanged'`). */
const LISTED = Prisma.sql`(${NOT_GRADED} OR ${MOVED} OR ${CRITERION_FLIP})`;
// The flips page's order as one ascending key (flips first, then a criterion's flips under a
// verdict that held, then the not graded, then the largest score move, then name and result key), so a page starts
// after (or ends before) a row by one row comparison: keyset pages, as fast deep in a big
// regrade as at its start.
const FLIP_RANK = Prisma.sql`CASE WHEN ${FLIP} THEN 0 ELSE 1 END`;
const CRITERIA_RANK = Prisma.sql`CASE WHEN ${FLIP} THEN 1 WHEN ${NOT_GRADED} THEN 1
  WHEN ${CRITERION_FLIP} THEN 0 ELSE 2 END`;
const MOVE = Prisma.sql`-abs(coalesce(n.score, 0) - coalesce(s.score, 0))::float8`;
const ORDER_KEY = Prisma.sql`(${FLIP_RANK}, ${CRITERIA_RANK}, ${MOVE}, n.name, n.result_key)`;

/** Where a flips page starts: the row key it follows or precedes, and that row's place (0-based). */
interface FlipCursor {
  key: [number, number, number, string, string];
  index: number;
}

const encodeFlipCursor = (cursor: FlipCursor) =>
  Buffer.from(JSON.stringify(cursor)).toString("base64url");

const isRank = (n: unknown) => n === 0 || n === 1 || n === 2;

/** A cursor from a URL; anything malformed is undefined (the page then opens at the start). */
function decodeFlipCursor(text: string | undefined): FlipCursor | undefined {
  if (!text) return undefined;
  try {
    const c = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as FlipCursor;
    const [flip, criteria, move, name, key] = c.key;
    return isRank(flip) &&
      isRank(criteria) &&
      Number.isFinite(move) &&
      typeof name === "string" &&
      typeof key === "string" &&
      Number.isSafeInteger(c.index) &&
      c.index >= 0
      ? { key: [flip, criteria, move, name, key], index: c.index }
      : undefined;
  } catch {
    return undefined;
  }
}

function filterSql(filter: FlipFilter) {
  return Prisma.sql`${filter.eval !== undefined ? Prisma.sql`AND n.eval_name = ${filter.eval}` : Prisma.empty}
    ${filter.agent !== undefined ? Prisma.sql`AND n.cell_agent = ${filter.agent}` : Prisma.empty}`;
}

export function createRegradeFlips(prisma: PrismaClient) {
  return {
    async flipCounts(input: { runId: string; filter?: FlipFilter }): Promise<FlipCounts> {
      const rows = await prisma.$queryRaw<{ kind: FlipKind; count: number }[]>`
        SELECT kind, count(*)::int AS count FROM (
          SELECT ${KIND} AS kind
          FROM runs r
          JOIN eval_results n ON n.run_id = r.id
          JOIN eval_results s ON s.run_id = r.regrade_of AND s.result_key = n.result_key
          WHERE r.id = ${input.runId}::uuid ${filterSql(input.filter ?? {})}
        ) k GROUP BY kind`;
      const of = (kind: FlipKind) => rows.find((r) => r.kind === kind)?.count ?? 0;
      return {
        nowFail: of("now_fail"),
        nowPass: of("now_pass"),
        criteria: of("criteria"),
        notGraded: of("not_graded"),
        moved: of("moved"),
        unchanged: of("unchanged"),
      };
    },

    /**
     * One page of the changes (unchanged results are only counted): flips first, then criteria
     * flips, then score moves. Paged by keyset: `after` a page's `nextCursor`, `before` its
     * `prevCursor`, neither for the first page (a malformed cursor opens the first page).
     */
    async flipPage(input: {
      runId: string;
      filter?: FlipFilter;
      after?: string;
      before?: string;
      limit?: number;
    }): Promise<FlipPage> {
      const limit = Math.max(1, Math.min(FLIPS_PAGE_SIZE, input.limit ?? FLIPS_PAGE_SIZE));
      const after = decodeFlipCursor(input.after);
      const before = after ? undefined : decodeFlipCursor(input.before);
      const from = after ?? before;
      const value = (k: FlipCursor["key"]) =>
        Prisma.sql`(${k[0]}::int, ${k[1]}::int, ${k[2]}::float8, ${k[3]}::text, ${k[4]}::text)`;
      const keyset = from
        ? Prisma.sql`AND ${ORDER_KEY} ${Prisma.raw(after ? ">" : "<")} ${value(from.key)}`
        : Prisma.empty;
      const dir = Prisma.raw(before ? "DESC" : "ASC");
      const rows = await prisma.$queryRaw<
        {
          kind: FlipKind;
          current: EvalResult;
          previous: EvalResult;
          flip: number;
          criteria: number;
          move: number;
          name: string;
          key: string;
        }[]
      >`
        SELECT ${KIND} AS kind, n.data AS current, s.data AS previous,
          ${FLIP_RANK} AS flip, ${CRITERIA_RANK} AS criteria, ${MOVE} AS move,
          n.name, n.result_key AS key
        FROM runs r
        JOIN eval_results n ON n.run_id = r.id
        JOIN eval_results s ON s.run_id = r.regrade_of AND s.result_key = n.result_key
        WHERE r.id = ${input.runId}::uuid AND ${LISTED}
          ${filterSql(input.filter ?? {})} ${keyset}
        ORDER BY ${ORDER_KEY} ${dir}
        LIMIT ${limit + 1}`;
      const more = rows.length > limit;
      const page = more ? rows.slice(0, limit) : rows;
      if (before) page.reverse();
      const firstIndex = after
        ? after.index + 1
        : before && more
          ? Math.max(0, before.index - page.length)
          : 0;
      const cursorOf = (r: (typeof rows)[number], index: number) =>
        encodeFlipCursor({ key: [r.flip, r.criteria, r.move, r.name, r.key], index });
      const first = page[0];
      const last = page.at(-1);
      const hasNext = before ? true : more;
      const hasPrev = before ? more : after !== undefined;
      return {
        pairs: page.map((r) => {
          const current = readStoredResult(r.current);
          const previous = readStoredResult(r.previous);
          return {
            kind: r.kind,
            current,
            previous,
            flippedCriteria: flippedCriteria({ now: current, before: previous }),
          };
        }),
        firstIndex,
        nextCursor: hasNext && last ? cursorOf(last, firstIndex + page.length - 1) : null,
        prevCursor: hasPrev && first ? cursorOf(first, firstIndex) : null,
      };
    },

    /**
     * The keys of every changed result (what the flips page lists), in the page's order: the one
     * order of a regrade's flips, which its reports and `report RUN_ID` follow (bounded by the
     * caller: the reports that render a whole run hold at most 50,000 results).
     */
    async flipOrder(runId: string): Promise<string[]> {
      if (!UUID.test(runId)) return [];
      const rows = await prisma.$queryRaw<{ key: string }[]>`
        SELECT n.result_key AS key
        FROM runs r
        JOIN eval_results n ON n.run_id = r.id
        JOIN eval_results s ON s.run_id = r.regrade_of AND s.result_key = n.result_key
        WHERE r.id = ${runId}::uuid AND ${LISTED}
        ORDER BY ${ORDER_KEY}`;
      return rows.map((r) => r.key);
    },

    /** The evals and candidate models a regrade's results span: the flips page's filters. */
    async flipFilters(runId: string): Promise<{ evals: string[]; agents: string[] }> {
      if (!UUID.test(runId)) return { evals: [], agents: [] };
      const [evals, agents] = await Promise.all([
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT eval_name AS v FROM eval_results WHERE run_id = ${runId}::uuid
          ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
        prisma.$queryRaw<{ v: string }[]>`
          SELECT DISTINCT cell_agent AS v FROM eval_results
          WHERE run_id = ${runId}::uuid AND cell_agent IS NOT NULL ORDER BY 1 LIMIT ${MAX_FILTER_OPTIONS}`,
      ]);
      return { evals: evals.map((r) => r.v), agents: agents.map((r) => r.v) };
    },
  };
}
