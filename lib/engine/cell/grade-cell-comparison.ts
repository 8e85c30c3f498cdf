import type { EvalResult } from "../results/report";
import { addTokenUsage } from "../ports/judge-port";
import type { ComparedCells, PlannedCell } from "../grade/planned-cell";
import type { LiveOutcome, LivePort, LiveRequest } from "../ports/live-port";
import type { PriceOf } from "../plan/explain-plan";
import { gradeCell } from "./grade-cell";
import type { CallJudge } from "../grade/call-judge";
import { agentSummary, liveRunOf, type LiveRuns } from "./grade-live-cell";
import { renderTranscript } from "../results/transcript";
import { skippedFields } from "../results/skip-kind";
import { comparedItems } from "../plan/plan-cell-comparison";

// Grades `compare: { eval, a, b }`: gets each side's candidate (a fixed
// response, or the live run of its cell, shared with that eval's own cells
// through `runs`), then hands the pairs to the pairwise engine as any other
// comparison. A side that could not run decides the whole comparison: it
// defers, fails or is skipped as that cell would be.

type ComparedCell = PlannedCell & { compared: ComparedCells };

export interface GradeCellComparisonInput {
  cell: ComparedCell;
  call: CallJudge;
  now: () => number;
  priceOf: PriceOf;
  runs: LiveRuns;
  live?: LivePort;
  schedule: LiveRequest["schedule"];
  signal?: AbortSignal;
}

type Live = NonNullable<PlannedCell["live"]>;

export async function gradeCellComparison(input: GradeCellComparisonInput): Promise<EvalResult> {
  const { cell, call, now } = input;
  const started = now();
  const rubric = cell.eval.rubric;
  if (rubric.kind !== "pairwise" || cell.deferReason !== undefined)
    return gradeCell({ cell, call, now });

  const sides = new Map<string, PlannedCell>();
  for (const pair of cell.compared.pairs)
    for (const side of [pair.a, pair.b]) sides.set(side.id, side);
  const liveSides = [...sides.values()].filter(
    (side): side is PlannedCell & { live: Live } =>
      side.candidate === undefined && side.live !== undefined,
  );
  if (liveSides.length > 0 && !input.live)
    throw new Error("gradeCellComparison: live cells were planned without a live port");
  const outcomes = new Map<string, LiveOutcome>(
    await Promise.all(
      liveSides.map(
        async (side) =>
          [
            side.id,
            await liveRunOf({
              cell: side,
              live: input.live!,
              schedule: input.schedule,
              runs: input.runs,
              ...(input.signal ? { signal: input.signal } : {}),
            }),
          ] as const,
      ),
    ),
  );

  // The agent runs' cost belongs to this result only when the source eval's own cells do not grade (and count) them too.
  const agents = cell.compared.sourcePlanned
    ? []
    : liveSides.flatMap((side) => {
        const outcome = outcomes.get(side.id)!;
        return outcome.kind === "deferred"
          ? []
          : [agentSummary({ calls: outcome.calls, cell: side, priceOf: input.priceOf })];
      });
  const withAgents = (result: EvalResult): EvalResult => ({
    ...result,
    usage: agents.reduce((u, a) => addTokenUsage(u, a.usage), result.usage),
    costUsd: result.costUsd + agents.reduce((sum, a) => sum + a.costUsd, 0),
    latencyMs: Math.max(0, now() - started),
  });

  for (const side of liveSides) {
    const outcome = outcomes.get(side.id)!;
    if (outcome.kind === "transcript") continue;
    if (outcome.kind === "deferred")
      return gradeCell({
        cell: {
          ...cell,
          deferReason: `cell ${side.name} could not run: ${outcome.reason}`,
          judgeCalls: 0,
        },
        call,
        now,
      });
    const { note: _deferNote, ...base } = await gradeCell({
      cell: { ...cell, deferReason: "", judgeCalls: 0 },
      call,
      now,
    });
    const failed = outcome.kind === "error";
    return withAgents({
      ...base,
      ...(failed
        ? {
            status: "failed" as const,
            display: "error",
            reason: `live run failed in cell ${side.name}: ${outcome.message}`,
          }
        : skippedFields(outcome.reason, `the live run of cell ${side.name} could finish`)),
    });
  }

  const outputOf = (side: PlannedCell) => {
    const outcome = outcomes.get(side.id);
    return outcome?.kind === "transcript"
      ? renderTranscript(outcome.transcript)
      : (side.candidate?.response ?? "");
  };
  const comparison = { ...rubric.comparison, items: comparedItems(cell.compared.pairs, outputOf) };
  return withAgents(
    await gradeCell({
      cell: { ...cell, eval: { ...cell.eval, rubric: { ...rubric, comparison } } },
      call,
      now,
    }),
  );
}
