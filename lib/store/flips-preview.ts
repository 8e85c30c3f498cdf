import type { SuiteConfig } from "../config/types";
import type { JudgePort } from "../engine/ports/judge-port";
import type { EvalResult } from "../engine/results/report";
import { plural } from "../engine/results/format-score";
import { planSuite } from "../engine/plan/plan-suite";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { RunOptions } from "../engine/run-suite";
import { runSuite } from "../engine/run-suite";
import { markRegrade, replayStoredCandidates } from "../engine/trust/regrade/regrade";
import { flipKindOf, isFlip } from "../engine/trust/regrade/flip-kind";
import { countFlipKinds } from "../engine/trust/regrade/flip-counts";
import { unreadDatasetEvals, unreadDatasetNote } from "../engine/trust/regrade/unread-datasets";
import type { PrismaClient } from "./generated/client";
import { claimOwner, createCachedJudge } from "./cached-judge";
import { cacheOnlyJudge, NO_CALL } from "./cache-only-judge";
import { createRunStore } from "./run-store";
import { versionNumbers } from "./version-numbers";
import { flipRowOf } from "./flip-rows";
import type {
  FlipRow,
  FlipsPlan,
  FlipsPreview,
  PreviewSource,
} from "../engine/results/flips-preview-types";
import { UUID } from "./uuid";

// The editor's "Flips against run…": a stored run's candidates graded with
// the editor's unsaved text, to see which verdicts flip before the version is
// saved. Nothing is stored as a run; the verdicts it pays for go to the judge
// cache (a later regrade reuses them), and those it finds there cost nothing.
// `planFlipsPreview` counts beforehand, from the cache alone, the judge calls
// the preview would pay for; `runFlipsPreview` refuses past its bound.

export type {
  FlipRow,
  FlipsPlan,
  FlipsPreview,
  PreviewSource,
} from "../engine/results/flips-preview-types";

export type Failure = { ok: false; code: string; message: string };

export interface FlipsPreviewInput {
  prisma: PrismaClient;
  runId: string;
  /** The suite the editor shows: a run of another suite is refused. */
  suiteId: string;
  /** The editor's text, already loaded (off the request's thread). */
  suite: SuiteConfig;
  defaultModel: string;
  toolVersion: string;
  priceOf: PriceOf;
  resolveModel?: RunOptions["resolveModel"];
  /** The judge calls one preview may pay for (the dashboard's LIMITS.requestJudgeCalls). */
  maxCalls: number;
  /** Judge calls, answered from the cache or not, one preview may grade (default MAX_COMPARED_CALLS). */
  maxCompared?: number;
  signal?: AbortSignal;
}

/**
 * A preview (and its plan, asked again as the text settles) grades every compared cell on the
 * server's thread, each call at least a judge cache lookup: past this many, `rubric-studio regrade` is
 * the way (a suite may plan 100,000 calls).
 */
export const MAX_COMPARED_CALLS = 20_000;

async function readSource(
  input: Pick<FlipsPreviewInput, "prisma" | "runId" | "suiteId">,
): Promise<{ ok: true; source: PreviewSource; results: EvalResult[] } | Failure> {
  const { prisma, runId } = input;
  const missing: Failure = { ok: false, code: "not_found", message: `No stored run ${runId}.` };
  if (!UUID.test(runId)) return missing;
  const row = await prisma.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      kind: true,
      suiteId: true,
      suiteVersionId: true,
      status: true,
      createdAt: true,
      suite: { select: { name: true } },
    },
  });
  if (!row || row.kind !== "eval") return missing;
  if (row.suiteId !== input.suiteId)
    return {
      ok: false,
      code: "bad_request",
      message: `Run ${runId} graded the suite "${row.suite.name}", not this one: pick one of this suite's runs.`,
    };
  if (row.status === "queued" || row.status === "running")
    return {
      ok: false,
      code: "bad_request",
      message: `Run ${runId} is still ${row.status}: compare against a finished run.`,
    };
  const versions = await versionNumbers(prisma, [row]);
  const results = await createRunStore(prisma).results(runId);
  return {
    ok: true,
    results,
    source: {
      runId,
      createdAt: row.createdAt.toISOString(),
      status: row.status,
      version: versions.get(row.suiteVersionId) ?? 0,
    },
  };
}

/** The options both passes grade with: the stored run's cells still in the text, its candidates replayed. */
function gradingOf(input: FlipsPreviewInput, results: EvalResult[]) {
  const plannedCells = planSuite({
    suite: input.suite,
    defaultModel: input.defaultModel,
    ...(input.resolveModel ? { resolveModel: input.resolveModel } : {}),
    agentsReplayed: true,
  });
  const planned = plannedCells.map((c) => c.id);
  const stored = new Set(results.map((r) => r.id));
  const inText = new Set(planned);
  const cells = new Set(planned.filter((id) => stored.has(id)));
  // An eval of a dataset file plans no item here: its results are not gone, its one cell not new.
  const unread = unreadDatasetEvals(input.suite);
  const comparedCalls = plannedCells
    .filter((c) => cells.has(c.id))
    .reduce((n, c) => n + c.judgeCalls, 0);
  const options: RunOptions = {
    suite: input.suite,
    defaultModel: input.defaultModel,
    ...(input.resolveModel ? { resolveModel: input.resolveModel } : {}),
    concurrency: 8,
    toolVersion: input.toolVersion,
    agentsReplayed: true,
    onlyResultIds: cells,
    ...(input.signal ? { signal: input.signal } : {}),
  };
  return {
    options,
    live: replayStoredCandidates({ results, sourceRunId: input.runId }),
    compared: cells.size,
    comparedCalls,
    gone: results.filter((r) => !inText.has(r.id) && !unread.has(r.eval)).map((r) => r.name),
    added: plannedCells
      .filter((c) => !stored.has(c.id) && !unread.has(c.eval.name))
      .map((c) => c.id),
    unread: [...unread.values()].flatMap((u) => {
      const count = results.filter((r) => r.eval === u.eval).length;
      return count > 0
        ? [unreadDatasetNote({ unread: u, results: count, runId: input.runId })]
        : [];
    }),
  };
}

/** Beforehand: what a preview against the run would pay, read from the judge cache; no call is made. */
export async function planFlipsPreview(
  input: FlipsPreviewInput,
): Promise<{ ok: true; value: FlipsPlan } | Failure> {
  const read = await readSource(input);
  if (!read.ok) return read;
  const grading = gradingOf(input, read.results);
  const maxCompared = input.maxCompared ?? MAX_COMPARED_CALLS;
  if (grading.comparedCalls > maxCompared)
    return {
      ok: false,
      code: "too_complex",
      message: `Run ${input.runId} has ${plural(grading.comparedCalls, "judge call")} to compare with this text (from the judge cache or not); a dashboard preview grades at most ${plural(maxCompared, "call")}. Save, then run rubric-studio regrade ${input.runId} --config <file>.`,
    };
  const misses: { costUsd: number | null }[] = [];
  let asked = 0;
  const judge = cacheOnlyJudge({ prisma: input.prisma, priceOf: input.priceOf, misses });
  const probe = await runSuite(grading.options, {
    judge: { grade: (request, context) => (asked++, judge.grade(request, context)) },
    live: grading.live,
    now: Date.now,
    priceOf: input.priceOf,
  });
  // Deferred before any judge is asked (no key here for its model): neither paid nor from the cache.
  const deferred = probe.results.filter((r) => r.status === "deferred");
  return {
    ok: true,
    value: {
      source: read.source,
      compared: grading.compared,
      gone: grading.gone,
      added: grading.added,
      unread: grading.unread,
      calls: misses.length,
      reused: asked - misses.length,
      costUsd: misses.reduce((n, m) => n + (m.costUsd ?? 0), 0),
      unpricedCalls: misses.filter((m) => m.costUsd === null).length,
      maxCalls: input.maxCalls,
      deferred: deferred.length,
      ...(deferred[0]?.note ? { deferReason: deferred[0].note } : {}),
    },
  };
}

/** Past the bound: refused before any call, with what to do instead. */
export function overBound(plan: FlipsPlan): Failure {
  return {
    ok: false,
    code: "too_complex",
    message: `This preview would make ${plural(plan.calls, "judge call")}; one dashboard request may make at most ${plural(plan.maxCalls, "call")}. Edit fewer criteria at once, or save and run rubric-studio regrade ${plan.source.runId} --config <file>.`,
  };
}

/**
 * The preview: the run's stored candidates graded with the text through the
 * judge cache (the evals whose rubric did not change answered from it at no cost), the flips
 * first. Each paid call is counted against the bound as it starts, so no
 * preview pays for more than `maxCalls` even where the plan undercounted.
 */
export async function runFlipsPreview(
  input: FlipsPreviewInput & {
    judge: JudgePort;
    onProgress?: (done: number, total: number) => void;
    /** The plan already made for this text and run (the route makes it to refuse before it streams). */
    plan?: FlipsPlan;
  },
): Promise<{ ok: true; value: FlipsPreview } | Failure> {
  const planned = input.plan
    ? { ok: true as const, value: input.plan }
    : await planFlipsPreview(input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  if (plan.calls > plan.maxCalls) return overBound(plan);
  const read = await readSource(input);
  if (!read.ok) return read;
  const grading = gradingOf(input, read.results);
  let paid = 0;
  const bounded: JudgePort = {
    grade: (request, context) =>
      ++paid > input.maxCalls
        ? Promise.resolve({
            ok: false,
            error: { kind: "request", message: overBound({ ...plan, calls: paid }).message },
            call: { ...NO_CALL, model: request.model },
          })
        : input.judge.grade(request, context),
  };
  const judge = createCachedJudge({
    prisma: input.prisma,
    inner: bounded,
    owner: claimOwner(),
    reuse: true,
    leaseMs: 5 * 60_000,
  });
  const report = await runSuite(grading.options, {
    judge,
    live: grading.live,
    now: Date.now,
    priceOf: input.priceOf,
    onEvent: (event) => {
      if (event.type === "result") input.onProgress?.(event.done, event.total);
    },
  });
  const marked = markRegrade({ report, source: read.results, sourceRunId: input.runId });
  const before = new Map(read.results.map((r) => [r.id, r]));
  // A result the preview did not grade (stopped, or deferred) is no flip: `not_graded`, as on the flips page.
  const kinds = marked.results
    .filter((r) => before.has(r.id))
    .map((now) => ({
      now,
      kind: flipKindOf({ now, before: before.get(now.id)! }),
    }));
  // The result's own flips first, then those of a criterion alone (as the flips page orders them).
  const flips = kinds
    .filter((k) => isFlip(k.kind))
    .sort((a, b) => Number(a.kind === "criteria") - Number(b.kind === "criteria"));
  return {
    ok: true,
    value: {
      ...plan,
      flips: flips.map(({ now, kind }) =>
        flipRowOf({
          now,
          before: before.get(now.id)!,
          kind: kind as FlipRow["kind"],
          runId: input.runId,
        }),
      ),
      counts: countFlipKinds(kinds.map((k) => k.kind)),
      spentUsd: report.results.reduce((n, r) => n + (r.costUsd ?? 0), 0),
    },
  };
}
