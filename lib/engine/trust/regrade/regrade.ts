import type { LiveOutcome, LivePort } from "../../ports/live-port";
import type { EvalResult, Report } from "../../results/report";
import type { Transcript } from "../../results/transcript";
import { flippedCriteria, NOT_GRADED, type Graded } from "./flip-kind";

// `regrade`: a stored run's candidates graded again by another rubric version
// or judge, with no generation or agent call. The stored candidates come back
// through the live port (a replay of what was recorded), so every other part
// of grading (the judge cache, the scheduler, the reports) is the one `eval` uses.

/** The candidate of a stored live or generated result, as the live port would have returned it. */
function storedOutcome(result: EvalResult): LiveOutcome | undefined {
  const { candidate } = result;
  if (candidate.transcript)
    return { kind: "transcript", transcript: candidate.transcript, calls: [] };
  if (candidate.source !== "generated" || candidate.response === undefined) return undefined;
  const transcript: Transcript = {
    server: "",
    model: candidate.agent?.model ?? result.cell?.agent ?? "",
    stop: "final",
    turns: 1,
    maxTurns: 1,
    entries: [
      { kind: "user", text: candidate.prompt ?? "" },
      { kind: "final", text: candidate.response },
    ],
  };
  return { kind: "transcript", transcript, calls: [] };
}

/** Whether a stored result recorded a candidate that can be graded again (a run that failed before it had one did not). */
export function hasStoredCandidate(result: EvalResult): boolean {
  const { candidate } = result;
  return candidate.transcript !== undefined || candidate.response !== undefined;
}

/** The fixed responses a stored run graded, by result id: `regrade` grades these, not the suite's text of now. */
export function storedResponses(results: readonly EvalResult[]): Map<string, string> {
  const responses = new Map<string, string>();
  for (const { id, candidate } of results)
    if (candidate.source === "fixed" && candidate.response !== undefined)
      responses.set(id, candidate.response);
  return responses;
}

/** A live port that answers each cell with its stored candidate and never calls a model or starts a server. */
export function replayStoredCandidates(input: {
  results: readonly EvalResult[];
  sourceRunId: string;
}): LivePort {
  const byId = new Map(input.results.map((r) => [r.id, r]));
  return {
    run: async (request) => {
      const stored = byId.get(request.cellId);
      const outcome = stored ? storedOutcome(stored) : undefined;
      return (
        outcome ?? {
          kind: "deferred",
          reason: `run ${input.sourceRunId} recorded no candidate for this cell (it was ${stored ? stored.status : "not in that run"}): produce one with rubric-studio eval`,
        }
      );
    },
  };
}

/** Skipped or deferred now or before (`flipKindOf`'s `not_graded`): neither a pass nor a fail. */
function notGraded(result: Pick<EvalResult, "status" | "previous">): boolean {
  const { previous } = result;
  return (
    previous !== undefined &&
    (NOT_GRADED.includes(result.status) || NOT_GRADED.includes(previous.status))
  );
}

/** Whether a result's verdict flipped: graded both times, it passes now and did not before, or the reverse. */
function flipped(result: Pick<EvalResult, "status" | "previous">): boolean {
  if (!result.previous || notGraded(result)) return false;
  return (result.status === "passed") !== (result.previous.status === "passed");
}

/** A result's previous verdict, with the criteria that flipped since (as the flips page counts them). */
export function previousOf(input: { now: EvalResult; before: Graded }): EvalResult["previous"] {
  const { now, before } = input;
  const criteria = before.criteria ? flippedCriteria({ now, before }) : [];
  return {
    score: before.score,
    status: before.status,
    ...(criteria.length > 0 ? { flippedCriteria: criteria } : {}),
  };
}

/**
 * The flips page's order (lib/store/regrade-flips.ts's ORDER_KEY) for results not read from the
 * store: a result's verdict flipped, then only a criterion's, then the not graded, then the rest; within each, the
 * biggest score change first, then by name and key (compared as a C collation compares them).
 */
function pageKey(result: EvalResult): [number, number, number, string, string] {
  const flip = flipped(result) ? 0 : 1;
  const criteria =
    flip === 0 || notGraded(result) ? 1 : result.previous?.flippedCriteria?.length ? 0 : 2;
  const move = -Math.abs((result.score ?? 0) - (result.previous?.score ?? 0));
  return [flip, criteria, move, result.name, result.id];
}

function byPageKey(a: ReturnType<typeof pageKey>, b: ReturnType<typeof pageKey>): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/**
 * The report of a regrade: each result with its previous score and status, linked to its source
 * run, in the flips page's order: its changed results first as the page lists them (`order`: their
 * keys as the page's query reads them, else ordered by the same key here), then the unchanged
 * ones in the report's order.
 */
export function markRegrade(input: {
  report: Report;
  /** The source's verdicts (`report` reads them joined in SQL); none when the results carry `previous`. */
  source: readonly (Graded & Pick<EvalResult, "id">)[];
  sourceRunId: string;
  /** The changed results' keys in the flips page's order (`flipOrder`, lib/store/regrade-flips.ts). */
  order?: readonly string[];
}): Report {
  const before = new Map(input.source.map((r) => [r.id, r]));
  const results = input.report.results.map((result) => {
    const previous = before.get(result.id);
    return previous
      ? { ...result, previous: previousOf({ now: result, before: previous }) }
      : result;
  });
  const place = new Map(input.order?.map((id, i) => [id, i]));
  const changed = (r: EvalResult) =>
    input.order ? place.has(r.id) : r.previous !== undefined && changedSince(r);
  const ranked = results.filter(changed);
  if (input.order) ranked.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
  else ranked.sort((a, b) => byPageKey(pageKey(a), pageKey(b)));
  const rest = results.filter((r) => !changed(r));
  return { ...input.report, regradeOf: input.sourceRunId, results: [...ranked, ...rest] };
}

/** What the flips page lists: a flip (the result's or a criterion's), a side not graded, or a score or status that moved. */
function changedSince(result: EvalResult): boolean {
  const { previous } = result;
  if (!previous) return false;
  return (
    flipped(result) ||
    notGraded(result) ||
    Boolean(previous.flippedCriteria?.length) ||
    result.score !== previous.score ||
    result.status !== previous.status
  );
}
