import { EVAL_STATUSES, type EvalStatus } from "../engine/results/report";
import { SKIP_KINDS, type SkipKind, type SkippedBy } from "../engine/results/skip-kind";
import { Prisma, type PrismaClient } from "./generated/client";
import {
  inProcessAgreement,
  keepAgreement,
  readAgreementSample,
  type ComputeAgreement,
} from "./run-agreement";

// What the run page shows of a whole run that SQL has to count over every result: the counts per
// status, the vacuous results, the heatmap's cells. For a run still running they are counted on
// each load; once it finishes, `finishRun` counts them once more and keeps them in `runs.figures`,
// so the page of a finished run of a million results reads one row instead of aggregating a
// million (`npm run bench:store -- --big-run`). `resume` clears them (`reopenRun`). The agreement
// view's figures are kept too (in `run_agreements`: run-agreement.ts), computed here, in the process
// that finishes the run (the CLI, a worker), so the dashboard never computes a finished run's.

export interface MatrixCell {
  /** The judge model (matrix.models). */
  model: string | null;
  /** The candidate's model (matrix.agents): the live agent, or the model that generated the candidate. */
  agent: string | null;
  promptIndex: number | null;
  /**
   * The eval of a cell with no prompt position (a matrix over a dataset's items, or of models
   * alone): the heatmap's column is then the eval, over all its items. Absent on a prompt's cell,
   * and in the figures kept by versions before it.
   */
  evalName?: string;
  /**
   * The cell's place in the suite's order: the least `suite_order` of its results (its first
   * result as the CLI lists the run). The heatmap's rows and columns and the bars follow it; absent
   * in the figures kept by versions before it.
   */
  order?: string;
  results: number;
  /** Passed, failed and judge errors: the graded ones a pass rate is over (deferred and skipped are not graded). */
  passed: number;
  failed: number;
  judge_error: number;
  meanScore: number | null;
}

export interface RunFigures {
  results: number;
  vacuous: number;
  counts: Record<EvalStatus, number>;
  /** The skipped results per cause, when some were skipped. */
  skippedBy?: SkippedBy;
  /** Why results deferred, the commonest causes first (at most 3). */
  deferReasons: { reason: string; count: number }[];
  /** Results of pairwise comparisons (none: the page asks nothing about position bias). */
  pairwise: number;
  /** Every criterion name of its results, once, sorted (the CSV's columns, named before its first row). */
  criteria?: string[];
  /** The heatmap's cells over every eval with a matrix. */
  cells: MatrixCell[];
  /** The model calls that made the candidates (generated answers, live runs), as the CLI's summary counts them. */
  generationCalls?: number;
}

/**
 * The heatmap of a run's matrix cells: candidate model, judge model × prompt, over every eval with a
 * matrix (or one eval); × eval for the cells with no prompt position (a dataset's items are never
 * a column each: a dataset of 10,000 items would be 10,000 columns).
 */
export async function matrixCellsOf(
  prisma: PrismaClient,
  input: { runId: string; evalName?: string },
): Promise<MatrixCell[]> {
  const rows = await prisma.evalResultRow.groupBy({
    by: ["cellAgent", "cellModel", "cellPrompt", "evalName", "status"],
    where: {
      runId: input.runId,
      OR: [
        { cellAgent: { not: null } },
        { cellModel: { not: null } },
        { cellPrompt: { not: null } },
      ],
      ...(input.evalName ? { evalName: input.evalName } : {}),
    },
    _count: { _all: true, score: true },
    _sum: { score: true },
    _min: { suiteOrder: true },
  });
  const cells = new Map<string, MatrixCell & { order: string; scored: number; scoreSum: number }>();
  for (const row of rows) {
    // A cell with a prompt position is that prompt's, across evals; one without is its eval's.
    const column = row.cellPrompt === null ? `eval:${row.evalName}` : `#${row.cellPrompt}`;
    const key = `${row.cellAgent ?? ""}\u0000${row.cellModel ?? ""}\u0000${column}`;
    const cell = cells.get(key) ?? {
      model: row.cellModel,
      agent: row.cellAgent,
      promptIndex: row.cellPrompt,
      ...(row.cellPrompt === null ? { evalName: row.evalName } : {}),
      results: 0,
      passed: 0,
      failed: 0,
      judge_error: 0,
      meanScore: null,
      order: row._min.suiteOrder ?? "",
      scored: 0,
      scoreSum: 0,
    };
    cell.results += row._count._all;
    if (row.status === "passed" || row.status === "failed" || row.status === "judge_error")
      cell[row.status] += row._count._all;
    // Results without a score count towards neither the mean nor, unless graded, the pass rate.
    cell.scoreSum += row._sum.score ?? 0;
    cell.scored += row._count.score;
    // The cell's place: its first result's in the suite's order, over its groups of one status each.
    if ((row._min.suiteOrder ?? "") < cell.order) cell.order = row._min.suiteOrder ?? "";
    cells.set(key, cell);
  }
  return [...cells.values()]
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map(({ scored, scoreSum, ...cell }) => ({
      ...cell,
      meanScore: scored > 0 ? scoreSum / scored : null,
    }));
}

/** The counts per status and the vacuous results, in one pass over the run's results. */
export async function countsOf(
  prisma: PrismaClient,
  runId: string,
): Promise<
  Pick<RunFigures, "results" | "vacuous" | "counts"> & { costUsd: number; judgeCalls: number }
> {
  const groups = await prisma.evalResultRow.groupBy({
    by: ["status", "vacuous"],
    where: { runId },
    _count: { _all: true },
    _sum: { costUsd: true, judgeCalls: true },
  });
  const counts = Object.fromEntries(EVAL_STATUSES.map((s) => [s, 0])) as Record<EvalStatus, number>;
  const figures = { results: 0, vacuous: 0, counts, costUsd: 0, judgeCalls: 0 };
  for (const group of groups) {
    if ((EVAL_STATUSES as string[]).includes(group.status))
      counts[group.status as EvalStatus] += group._count._all;
    if (group.vacuous) figures.vacuous += group._count._all;
    figures.results += group._count._all;
    figures.costUsd += group._sum.costUsd ?? 0;
    figures.judgeCalls += group._sum.judgeCalls ?? 0;
  }
  return figures;
}

/**
 * A run's skipped results per cause: the result's skipKind, or for a result
 * stored before skips had one, the cause its note began with.
 */
export async function skippedByOf(prisma: PrismaClient, runId: string): Promise<SkippedBy> {
  const rows = await prisma.$queryRaw<{ kind: string | null; n: number }[]>`
    SELECT COALESCE(data->>'skipKind', substring(note from '^skipped [(](budget|interrupted)[)]: ')) AS kind, count(*)::int AS n
    FROM eval_results WHERE run_id = ${runId}::uuid AND status = 'skipped' GROUP BY 1`;
  const by: SkippedBy = {};
  for (const row of rows)
    if ((SKIP_KINDS as readonly (string | null)[]).includes(row.kind))
      by[row.kind as SkipKind] = row.n;
  return by;
}

/** Why a run's deferred results were not graded: each distinct cause with how many it deferred, the commonest first (at most 3). */
export async function deferReasonsOf(
  prisma: PrismaClient,
  runId: string,
): Promise<{ reason: string; count: number }[]> {
  return prisma.$queryRaw<{ reason: string; count: number }[]>`
    SELECT coalesce(note, reason) AS reason, count(*)::int AS count
    FROM eval_results
    WHERE run_id = ${runId}::uuid AND status = 'deferred'
    GROUP BY 1
    ORDER BY 2 DESC, 1
    LIMIT 3`;
}

/** Every criterion name of the run's results, once, sorted (the csv reporter's column order). */
export async function criterionNamesOf(prisma: PrismaClient, runId: string): Promise<string[]> {
  const rows = await prisma.$queryRaw<
    { name: string }[]
  >`SELECT DISTINCT name FROM criterion_results WHERE run_id = ${runId}::uuid ORDER BY name`;
  return rows.map((row) => row.name).sort();
}

/**
 * Counts a finished run's figures and keeps them with the run. Its judge agreement is computed by
 * `computeAgreement` (default: in this process; a worker or the dashboard passes a worker thread,
 * since a big multi-judge run's bootstrap is a minute of CPU); without an answer none is kept, and
 * the agreement view computes them when it is opened.
 */
export async function storeRunFigures(
  prisma: PrismaClient,
  input: { runId: string; computeAgreement?: ComputeAgreement },
): Promise<void> {
  const { runId } = input;
  const [counted, cells, deferReasons, pairwise, criteria, sample, generation] = await Promise.all([
    countsOf(prisma, runId),
    matrixCellsOf(prisma, { runId }),
    deferReasonsOf(prisma, runId),
    prisma.evalResultRow.count({ where: { runId, rubricKind: "pairwise" } }),
    criterionNamesOf(prisma, runId),
    readAgreementSample(prisma, runId),
    // A live run shared by several cells is counted by the one that paid for it (report-totals.ts).
    prisma.$queryRaw<{ n: number }[]>`
      SELECT coalesce(sum(jsonb_array_length(data->'candidate'->'agent'->'calls')), 0)::int AS n
      FROM eval_results WHERE run_id = ${runId}::uuid
        AND jsonb_typeof(data->'candidate'->'agent'->'calls') = 'array'
        AND data->'candidate'->'agent'->'countedIn' IS NULL`,
  ]);
  const figures: RunFigures = {
    results: counted.results,
    vacuous: counted.vacuous,
    counts: counted.counts,
    ...(counted.counts.skipped > 0 ? { skippedBy: await skippedByOf(prisma, runId) } : {}),
    deferReasons,
    pairwise,
    criteria,
    cells,
    generationCalls: generation[0]?.n ?? 0,
  };
  await prisma.run.update({
    where: { id: runId },
    data: { figures: figures as unknown as Prisma.InputJsonValue },
  });
  // A run none of whose results had several judges has nothing to compute: no thread is started
  // for it (a worker's thread and its bundle were ~100 MB of the worker's peak for an empty sample).
  const compute = (sample.results.length > 0 && input.computeAgreement) || inProcessAgreement;
  const agreement = await compute(sample);
  if (agreement.ok) await keepAgreement(prisma, { runId, agreement: agreement.value });
}

/** The figures kept with a finished run, if they were (runs finished before this kept none). */
export function keptFigures(run: {
  finishedAt: Date | null;
  figures: unknown;
}): RunFigures | undefined {
  const figures = run.figures as RunFigures | null;
  return run.finishedAt && figures && Array.isArray(figures.cells) ? figures : undefined;
}

/** The figures a finished run kept, read by its id. */
export async function keptFiguresOf(
  prisma: PrismaClient,
  runId: string,
): Promise<RunFigures | undefined> {
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { finishedAt: true, figures: true },
  });
  return run ? keptFigures(run) : undefined;
}
