import { formatUsd, plural } from "../results/format-score";
import { formatCount } from "../../config/limits";
import type { ProjectedInput } from "./cache-projection";
import type { ExplainedPlan } from "./explain-plan";

// The text of `eval --explain` (and the editor's plan panel): an ExplainedPlan (explain-plan.ts)
// as lines, the cost line with and without the prompt cache, batches and an unchanged rerun.

/** Naive, with the prompt cache (and what it writes and reads), and an unchanged rerun. */
function costLine(c: {
  naiveUsd: number | null;
  costUsd: number | null;
  batchUsd: number | null;
  rerunUsd: number | null;
  cacheInput: ProjectedInput;
}): string {
  const usd = (v: number | null) => `~${formatUsd(v ?? 0)}`;
  const { write5m, write1h, read } = c.cacheInput;
  const cache =
    write5m + write1h + read === 0
      ? "no prefix cached"
      : `${formatCount(write5m + write1h)} input tokens written, ${formatCount(read)} read`;
  return (
    `naive ${usd(c.naiveUsd)}, with the prompt cache ${usd(c.costUsd)} (${cache}), with ` +
    `batches ${usd(c.batchUsd)}, unchanged rerun ${usd(c.rerunUsd)}`
  );
}

/**
 * The TTL only where something is cached: below every model's minimum the API caches nothing,
 * whatever the TTL asked.
 */
function ttlClause(plan: ExplainedPlan): string {
  const { write5m, write1h, read } = plan.totals.cacheInput;
  if (write5m + write1h + read === 0)
    return (
      "nothing is cached: no shared prefix reaches its judge model's minimum cacheable " +
      "length (or the model has no known minimum)"
    );
  return `the rubric's prefix cached for ${plan.cacheTtl === "1h" ? "1 hour" : "5 minutes"}`;
}

export function renderExplain(plan: ExplainedPlan): string {
  const lines: string[] = [];
  for (const cell of plan.cells) {
    lines.push(cell.name);
    lines.push(...cell.rubric.map((l) => `  ${l}`));
    lines.push(`  candidate: ${cell.candidate}`);
    if (cell.agent !== undefined) lines.push(`  agent: ${cell.agent}`);
    lines.push(`  judge: ${cell.judges.join(", ")}`);
    if (cell.deferReason !== undefined) lines.push(`  deferred: ${cell.deferReason}`);
    else {
      const unpricedPart = `${plural(cell.unpricedCalls, "unpriced call")} (model not in the pricing table)`;
      const cost =
        cell.costUsd === null
          ? "unpriced (model not in the pricing table)"
          : cell.unpricedCalls > 0
            ? `~${formatUsd(cell.costUsd)} + ${unpricedPart}`
            : `~${formatUsd(cell.costUsd)}`;
      lines.push(
        `  judge calls: ${formatCount(cell.judgeCalls)}, ~${formatCount(cell.inputTokens)} input + ${formatCount(cell.outputTokens)} output tokens, ${cost}`,
      );
      if (cell.costUsd !== null) lines.push(`  cost: ${costLine(cell)}`);
      if (cell.generationCalls > 0)
        lines.push(
          `  generation calls: ${formatCount(cell.generationCalls)}, ${cell.generationUsd === null ? "unpriced (model not in the pricing table)" : `~${formatUsd(cell.generationUsd)}`}`,
        );
    }
    lines.push("");
  }
  if (plan.unlisted)
    lines.push(
      `… and ${plural(plan.unlisted, "more cell")} like these (in the totals below, not listed)`,
      "",
    );
  const t = plan.totals;
  lines.push(
    `Plan: ${plural(t.evals, "eval")}, ` +
      `${plural(t.cells, "cell")}${t.deferred ? ` (${formatCount(t.deferred)} deferred)` : ""}, ` +
      `${plural(t.judgeCalls, "judge call")}, ~${formatCount(t.inputTokens)} input + ${formatCount(t.outputTokens)} ` +
      // With generated candidates the projection is the whole run's, as the editor's headline says it.
      (t.generationCalls && t.generationUsd !== null
        ? `output tokens, projected cost ~${formatUsd(t.costUsd + t.generationUsd)} (judges ~${formatUsd(t.costUsd)} + generation ~${formatUsd(t.generationUsd)})`
        : `output tokens, projected cost ~${formatUsd(t.costUsd)}`),
    `Cost: ${costLine(t)}${plan.rerunHint ? ` (${plan.rerunHint})` : ""}; ${ttlClause(plan)}`,
  );
  if (t.generationCalls)
    lines.push(
      `Generation: ${plural(t.generationCalls, "generation call")} (a model answers each prompt, no tools), projected cost ~${formatUsd(t.generationUsd)}; with the judge calls ~${formatUsd(t.generationUsd + t.costUsd)}.`,
    );
  if (t.agentCalls > t.generationCalls)
    lines.push(
      `Live runs: up to ${formatCount(t.agentCalls - t.generationCalls)} agent model calls (the sum of their turn limits).`,
    );
  if (t.unpricedModels.length)
    lines.push(`No price known for: ${t.unpricedModels.join(", ")} (not counted in the cost).`);
  lines.push(`Assumes ${plan.assumptions}.`);
  return lines.join("\n");
}
