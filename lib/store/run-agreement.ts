import type { EvalResult } from "../engine/results/report";
import { Prisma, type PrismaClient } from "./generated/client";
import {
  AGREEMENT_MAX_RESULTS,
  NO_AGREEMENT,
  agreementOf,
  isRunAgreement,
  type RunAgreement,
} from "./agreement-figures";
import { UUID } from "./uuid";

// The judge-agreement view of a run (app/runs/[id]/agreement): the engine's statistics (α with its
// bootstrap, κ, exact agreement), juror × juror matrices and disagreements, over the run's
// multi-judge results in the suite's order, at most AGREEMENT_MAX_RESULTS of them (the page names
// the sample). The work is split so that no part of it runs long on the dashboard's event loop:
// `readAgreementSample` reads the rows (the texts the figures never read left out in SQL),
// `agreementOf` computes (pure: the dashboard runs it on a worker thread, lib/offthread), and
// `finishRun` keeps the answer in `run_agreements` (run-figures.ts), which the view reads.

// The only rows agreement reads, picked in SQL so a 10,000-result
// single-judge run loads no documents (the engine still applies its own exact
// filter): graded results, comparisons left out, with two or more judge
// entries, or the cells of an eval whose matrix varies the judge model over
// two or more models (cells that differ only by judge model grade one
// candidate, so their single judges are raters of one unit; lib/engine/agreement).
// The second is asked of each row (another graded cell of its eval with another judge model, one
// probe of eval_results(run_id, eval_name)), not of the run's every eval at once: on a run of a
// million results, `hasSeveralJudges` stops at the first row that qualifies. The table is `e`.
export function agreementRows(runId: string): Prisma.Sql {
  return Prisma.sql`e.run_id = ${runId}::uuid AND e.status IN ('passed', 'failed') AND e.data->'pairwise' IS NULL AND (e.judge_count >= 2 OR (e.cell_model IS NOT NULL AND EXISTS (
    SELECT 1 FROM eval_results other WHERE other.run_id = e.run_id AND other.eval_name = e.eval_name AND other.cell_model IS NOT NULL AND other.cell_model <> e.cell_model AND other.status IN ('passed', 'failed'))))`;
}

// What agreement never reads of a stored result (report-totals.ts's `ratingsOf` drops the same):
// its calls, tree and gates, the candidate's texts (only its source is kept) and the judge's
// reason. Read through rubric_studio_result (each lone verdict's reasoning put back, result-rows.ts).
// Left out in SQL, a 10,000-result sample is a fraction of the bytes to parse.
const SLIM = Prisma.sql`(rubric_studio_result(e.data) - 'calls' - 'tree' - 'gates' - 'reason' - 'candidate') || jsonb_build_object('candidate', jsonb_build_object('source', e.data->'candidate'->'source'))`;

/** The run's first multi-judge results in the suite's order (at most AGREEMENT_MAX_RESULTS). */
export async function readAgreementSample(
  prisma: PrismaClient,
  runId: string,
): Promise<{ results: EvalResult[]; sampledFirst?: number; of?: number }> {
  const rows = await prisma.$queryRaw<
    { data: unknown }[]
  >`SELECT ${SLIM} AS data FROM eval_results e WHERE ${agreementRows(runId)} ORDER BY e.suite_order, e.id LIMIT ${AGREEMENT_MAX_RESULTS + 1}`;
  const results = rows.slice(0, AGREEMENT_MAX_RESULTS).map((r) => r.data as EvalResult);
  if (rows.length <= AGREEMENT_MAX_RESULTS) return { results };
  const counted = await prisma.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM eval_results e WHERE ${agreementRows(runId)}`;
  return { results, sampledFirst: AGREEMENT_MAX_RESULTS, of: counted[0]?.n ?? 0 };
}

/** Keeps a finished run's agreement figures (finishRun; the view, for a run finished by an older version). */
export async function keepAgreement(
  prisma: PrismaClient,
  input: { runId: string; agreement: RunAgreement },
): Promise<void> {
  const figures = input.agreement as unknown as Prisma.InputJsonValue;
  await prisma.runAgreementRow.upsert({
    where: { runId: input.runId },
    create: { runId: input.runId, figures },
    update: { figures },
  });
}

/** How the figures are computed from the sample: in this process by default; the dashboard passes a worker thread. */
export type ComputeAgreement = (
  sample: Awaited<ReturnType<typeof readAgreementSample>>,
) => Promise<{ ok: true; value: RunAgreement } | { ok: false; message: string }>;

/** The figures computed on this process's own thread. */
export const inProcessAgreement: ComputeAgreement = async (sample) => ({
  ok: true,
  value: agreementOf(sample),
});

/** The agreement view, or why it could not be computed now (a worker thread's time limit, a busy server). */
export type AgreementAnswer = RunAgreement | { unavailable: string };

export function createAgreementViews(prisma: PrismaClient) {
  return {
    /**
     * Whether any result of the run was graded by several jurors or panel models (the run page
     * links the agreement view).
     */
    async hasSeveralJudges(runId: string): Promise<boolean> {
      if (!UUID.test(runId)) return false;
      const rows = await prisma.$queryRaw<
        { found: boolean }[]
      >`SELECT EXISTS (SELECT 1 FROM eval_results e WHERE ${agreementRows(runId)}) AS found`;
      return rows[0]?.found === true;
    },

    /**
     * Agreement of the run's jurors and panel models: for a finished run, the figures `finishRun`
     * kept (one row read); for a run still running, or finished by a version that kept none, the
     * engine's figures over the sample computed by `compute` (a finished run keeps them then, so
     * the next load reads one row).
     */
    async runAgreement(
      runId: string,
      options: { compute?: ComputeAgreement } = {},
    ): Promise<AgreementAnswer> {
      if (!UUID.test(runId)) return NO_AGREEMENT;
      const run = await prisma.run.findUnique({
        where: { id: runId },
        select: { finishedAt: true, agreement: { select: { figures: true } } },
      });
      if (!run) return NO_AGREEMENT;
      const kept = run.agreement?.figures;
      if (run.finishedAt && isRunAgreement(kept)) return kept;
      const computed = await (options.compute ?? inProcessAgreement)(
        await readAgreementSample(prisma, runId),
      );
      if (!computed.ok) return { unavailable: computed.message };
      // Kept only for a finished run (resume deletes them, and finishRun computes them again).
      if (run.finishedAt) await keepAgreement(prisma, { runId, agreement: computed.value });
      return computed.value;
    },
  };
}
