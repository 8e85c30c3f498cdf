import type { TokenUsage } from "../ports/judge-port";
import { addTokenUsage } from "../ports/judge-port";
import type { AgentCallRecord, LiveOutcome, LivePort, LiveRequest } from "../ports/live-port";
import type { EvalResult, LiveAgentSummary } from "../results/report";
import { liveRunKey, type LiveCell } from "../grade/planned-cell";
import type { PriceOf } from "../plan/explain-plan";
import { gradeCell } from "./grade-cell";
import type { CallJudge } from "../grade/call-judge";
import { costOf } from "../cost/cost";
import { finalReply, renderTranscript, type Transcript } from "../results/transcript";
import { skippedFields } from "../results/skip-kind";

// Grades a cell whose candidate is a live agent run: asks the live port for
// the run, then grades the rendered transcript like any fixed response. A
// generated candidate (no server) is a run of one turn with no tools; its
// reply is graded with its prompt, as a fixed response is. Cells
// that differ only in their judge model (matrix.models) share one run, so the
// judges are compared on the very same transcript, and it is paid for once:
// its cost counts in the result of the cell that started it, and the others
// show the run with `countedIn` naming that result.

/** Per shared agent run: the id of the cell that started it (the one result that counts its cost), and the run. */
export type LiveRuns = Map<string, { owner: string; outcome: Promise<LiveOutcome> }>;

export interface GradeLiveCellInput {
  cell: LiveCell;
  live: LivePort;
  schedule: LiveRequest["schedule"];
  call: CallJudge;
  now: () => number;
  priceOf: PriceOf;
  runs: LiveRuns;
  signal?: AbortSignal;
  /** The candidates are a stored run's, replayed (regrade): a skip is before grading, not generating. */
  replayed?: boolean;
}

export function agentSummary(input: {
  calls: AgentCallRecord[];
  cell: GradeLiveCellInput["cell"];
  priceOf: PriceOf;
  transcript?: Transcript;
}): LiveAgentSummary {
  const { cell, priceOf, transcript } = input;
  const price = priceOf(cell.live.agent.model);
  const calls = input.calls.map((c) => ({ ...c, costUsd: price ? costOf(price, c.usage) : null }));
  return {
    model: cell.live.agent.model,
    ...(cell.live.agent.provider !== undefined ? { provider: cell.live.agent.provider } : {}),
    turns: transcript?.turns ?? calls.length,
    maxTurns: cell.live.agent.maxTurns,
    usage: calls.reduce((sum, c) => addTokenUsage(sum, c.usage), {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    }),
    costUsd: calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    calls,
  };
}

/**
 * The agent run of a live cell, started once per run of the suite and shared
 * by every cell that grades it: the cells that differ only in judge model, and
 * a comparison of cells (`compare: { eval, a, b }`).
 */
export function liveRunOf(
  input: Pick<GradeLiveCellInput, "cell" | "live" | "schedule" | "runs" | "signal">,
): Promise<LiveOutcome> {
  const { cell, live, runs } = input;
  const key = liveRunKey(cell);
  let pending = runs.get(key);
  if (!pending) {
    pending = {
      owner: cell.id,
      outcome: live.run({
        cellId: cell.id,
        ...cell.live,
        schedule: input.schedule,
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    };
    runs.set(key, pending);
  }
  return pending.outcome;
}

/** The result that counts a shared agent run's cost: the cell that started it. Undefined before the run is started. */
export function liveRunOwner(runs: LiveRuns, cell: LiveCell): string | undefined {
  return runs.get(liveRunKey(cell))?.owner;
}

export async function gradeLiveCell(input: GradeLiveCellInput): Promise<EvalResult> {
  const { cell, now } = input;
  const started = now();
  const outcome = await liveRunOf(input);

  if (outcome.kind === "deferred") {
    const result = await gradeCell({
      cell: { ...cell, deferReason: outcome.reason, judgeCalls: 0 },
      call: input.call,
      now,
    });
    return { ...result, candidate: { ...result.candidate, source: "live" } };
  }

  const summary = agentSummary({
    calls: outcome.calls,
    cell,
    priceOf: input.priceOf,
    ...(outcome.transcript ? { transcript: outcome.transcript } : {}),
  });
  // Cells that share the run show it whole, but only the one that started it counts its cost, so totals count it once.
  const owner = liveRunOwner(input.runs, cell);
  const counted = owner === undefined || owner === cell.id;
  const agent: LiveAgentSummary = counted ? summary : { ...summary, countedIn: owner };
  const paid = counted
    ? { usage: agent.usage, costUsd: agent.costUsd }
    : { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0 };
  // A generated candidate (no server) is the model's reply alone: one turn, no tools, nothing else to show.
  const generated = cell.live.server === undefined;
  const liveCandidate = (
    transcript: Transcript | undefined,
    serverStderr?: string,
  ): EvalResult["candidate"] => {
    const reply = transcript ? finalReply(transcript) : undefined;
    if (generated)
      return {
        source: "generated",
        prompt: cell.live.prompt,
        ...(reply !== undefined ? { response: reply } : {}),
        agent,
      };
    return {
      source: "live",
      server: cell.live.serverName,
      prompt: cell.live.prompt,
      ...(reply !== undefined ? { response: reply } : {}),
      ...(transcript ? { transcript } : {}),
      agent,
      ...(serverStderr ? { serverStderr } : {}),
    };
  };

  if (outcome.kind === "error" || outcome.kind === "skipped") {
    // Built on the deferred shape (no judge calls were made), then marked for what happened.
    const { note: _deferNote, ...base } = await gradeCell({
      cell: { ...cell, deferReason: "", judgeCalls: 0 },
      call: input.call,
      now,
    });
    const failed = outcome.kind === "error";
    return {
      ...base,
      // A skip carries its kind and note as other skips do; a failure's reason says it all.
      ...(failed
        ? {
            status: "failed" as const,
            display: "error",
            reason: `${generated ? "generation" : "live run"} failed: ${outcome.message}`,
          }
        : skippedFields(
            outcome.reason,
            input.replayed
              ? "its stored candidate was graded again"
              : generated
                ? "the candidate was generated"
                : "the live agent run could finish",
          )),
      candidate: liveCandidate(outcome.transcript, failed ? outcome.serverStderr : undefined),
      usage: paid.usage,
      costUsd: paid.costUsd,
      latencyMs: Math.max(0, now() - started),
    };
  }

  // Graded like a fixed response: criteria, `when:` predicates and evidence
  // spans all read the rendered transcript. The prompt is part of it.
  const reply = generated ? (finalReply(outcome.transcript) ?? "") : undefined;
  const graded = await gradeCell({
    cell: {
      ...cell,
      candidate: {
        ...(reply !== undefined
          ? { prompt: cell.live.prompt, response: reply }
          : { response: renderTranscript(outcome.transcript) }),
        ...(cell.reference ? { reference: cell.reference } : {}),
      },
    },
    call: input.call,
    now,
  });
  return {
    ...graded,
    candidate: liveCandidate(outcome.transcript),
    ...(cell.reference ? { reference: cell.reference } : {}),
    usage: addTokenUsage(graded.usage, paid.usage),
    costUsd: graded.costUsd + paid.costUsd,
    latencyMs: Math.max(0, now() - started),
  };
}
