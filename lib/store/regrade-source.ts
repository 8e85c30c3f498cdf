import type { PlannedCell } from "../engine/grade/planned-cell";
import { planCells, type PlanOptions } from "../engine/plan/plan-suite";
import type { PrismaClient } from "./connection";

// What a regrade (the CLI's `regrade`, the dashboard's Re-grade with…) reads of its source run
// before it grades, without reading it whole (issue 20): the plan of the suite it grades with is
// walked once, a window of cells at a time, each window's stored results looked up by key in one
// query (the unique index on (run_id, result_key)); then the source's keys are read in keyset
// pages by (suite_order, id), as `resume` reads them (stored-verdicts.ts), for the results gone
// from the suite. What is held is the keys of the cells graded again (a few dozen bytes each) and
// the fixed responses the source graded that the suite's text no longer says (usually none): a
// result's JSON is never read whole, and no candidate is held.

const WINDOW = 500;
const KEY_PAGE = 5_000;
/** Names kept for the lines that list what was left out; past this, counted only. */
export const NAMED_AT_MOST = 20;

/** Counted, with the first few named. */
export interface Tally {
  count: number;
  names: string[];
}

export interface SourceMatch {
  /** The source's results whose cell the suite still plans and which recorded a candidate: the cells graded again. */
  cells: Set<string>;
  /** Their judge calls, as `plan` plans them. */
  judgeCalls: number;
  /** The fixed responses the source graded where the suite's text now says another (graded instead of it). */
  responses: Map<string, string>;
  /** Results the source stored. */
  stored: number;
  /** Results of the source whose cell the suite no longer plans (those of an `unread` eval apart). */
  gone: Tally;
  /** Cells the suite plans that the source has no result for (an `unread` eval's apart). */
  added: Tally;
  /** Planned cells whose stored result recorded no candidate (named "name (status)"), by status. */
  empty: Tally & { statuses: Map<string, number> };
  /** Results of each `unread` eval (a dataset file this process does not read), by eval. */
  unread: Map<string, number>;
}

const tally = (): Tally => ({ count: 0, names: [] });
const note = (t: Tally, name: string) => {
  t.count++;
  if (t.names.length < NAMED_AT_MOST) t.names.push(name);
};

/** "a, b, c" or "a, b, … and 180 more". */
export function namedList(t: Tally): string {
  const more = t.count - t.names.length;
  return `${t.names.join(", ")}${more > 0 ? `, … and ${more} more` : ""}`;
}

interface SourceRow {
  key: string;
  name: string;
  status: string;
  empty: boolean;
  response: string | null;
}

async function rowsOf(
  prisma: PrismaClient,
  input: { runId: string; keys: string[] },
): Promise<Map<string, SourceRow>> {
  const rows = await prisma.$queryRaw<SourceRow[]>`
    SELECT result_key AS key, name, status,
      (data->'candidate'->'transcript' IS NULL AND data->'candidate'->'response' IS NULL) AS empty,
      CASE WHEN data->'candidate'->>'source' = 'fixed' THEN data->'candidate'->>'response' END AS response
    FROM eval_results
    WHERE run_id = ${input.runId}::uuid AND result_key = ANY(${input.keys}::text[])`;
  return new Map(rows.map((row) => [row.key, row]));
}

/**
 * The source run `sourceRunId` matched against the cells `plan` plans (by result id: eval name and
 * cell), in one walk of the plan and one of the source's keys. `unread`: evals whose cells this
 * process cannot plan (the dashboard reads no dataset files): their results are neither gone nor new.
 */
export async function matchRegradeSource(input: {
  prisma: PrismaClient;
  sourceRunId: string;
  plan: PlanOptions;
  unread?: ReadonlySet<string>;
}): Promise<SourceMatch> {
  const { prisma, sourceRunId: runId } = input;
  const unread = input.unread ?? new Set<string>();
  const match: SourceMatch = {
    cells: new Set(),
    judgeCalls: 0,
    responses: new Map(),
    stored: 0,
    gone: tally(),
    added: tally(),
    empty: { ...tally(), statuses: new Map() },
    unread: new Map(),
  };
  // Every stored key the plan holds, whether or not it had a candidate: the rest are gone.
  const planned = new Set<string>();
  const look = async (window: PlannedCell[]) => {
    const rows = await rowsOf(prisma, { runId, keys: window.map((c) => c.id) });
    for (const cell of window) {
      const row = rows.get(cell.id);
      if (!row) {
        if (!unread.has(cell.eval.name)) note(match.added, cell.id);
        continue;
      }
      planned.add(cell.id);
      if (row.empty) {
        note(match.empty, `${row.name} (${row.status})`);
        match.empty.statuses.set(row.status, (match.empty.statuses.get(row.status) ?? 0) + 1);
        continue;
      }
      match.cells.add(cell.id);
      match.judgeCalls += cell.judgeCalls;
      if (row.response !== null && row.response !== cell.candidate?.response)
        match.responses.set(cell.id, row.response);
    }
  };
  let window: PlannedCell[] = [];
  for await (const cell of planCells(input.plan)) {
    window.push(cell);
    if (window.length >= WINDOW) {
      await look(window);
      window = [];
    }
  }
  if (window.length > 0) await look(window);

  for await (const row of sourceKeys(prisma, runId)) {
    match.stored++;
    if (planned.has(row.key)) continue;
    if (unread.has(row.eval)) match.unread.set(row.eval, (match.unread.get(row.eval) ?? 0) + 1);
    else note(match.gone, row.name);
  }
  return match;
}

/** The source's result keys, names and evals in the suite's order, a keyset page at a time. */
async function* sourceKeys(
  prisma: PrismaClient,
  runId: string,
): AsyncGenerator<{ key: string; name: string; eval: string }> {
  let after: { order: string; id: string } | undefined;
  for (;;) {
    type Row = { id: string; ord: string; key: string; name: string; eval: string };
    const rows: Row[] = after
      ? await prisma.$queryRaw`
          SELECT id::text AS id, suite_order AS ord, result_key AS key, name, eval_name AS eval
          FROM eval_results
          WHERE run_id = ${runId}::uuid AND (suite_order, id) > (${after.order}, ${after.id}::uuid)
          ORDER BY suite_order, id LIMIT ${KEY_PAGE}`
      : await prisma.$queryRaw`
          SELECT id::text AS id, suite_order AS ord, result_key AS key, name, eval_name AS eval
          FROM eval_results WHERE run_id = ${runId}::uuid
          ORDER BY suite_order, id LIMIT ${KEY_PAGE}`;
    yield* rows;
    if (rows.length < KEY_PAGE) return;
    const last = rows.at(-1)!;
    after = { order: last.ord, id: last.id };
  }
}
