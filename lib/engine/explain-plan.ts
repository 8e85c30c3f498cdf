import type { Rubric } from "../config/types";
import type { JudgeRequest, VerdictKind } from "./judge-port";
import type { ComparedCells, PlannedCell } from "./planned-cell";
import { costOf, type ModelPrice } from "./cost";
import { formatUsd, plural } from "./format-score";
import { describeCategoryRubric } from "./review/review-prompt";
import { createRequestEstimator, EXPECTED_OUTPUT_TOKENS, longestPath, REQUEST_OVERHEAD_TOKENS, tokensOf, type TokenEstimate } from "./estimate-requests";
import { liveRunKey } from "./planned-cell";
import { ASSUMED_TRANSCRIPT_CHARS, assumedLiveCandidate, liveAgentLine, liveCandidateLine } from "./explain-live";

// `eval --explain`: what each cell would grade, with how many judge calls and
// what they would cost. Builds the requests a run would send, without
// sending any (their stable parts once per rubric: estimate-requests.ts).

export { EXPECTED_OUTPUT_TOKENS, REQUEST_OVERHEAD_TOKENS };

export type PriceOf = (model: string) => ModelPrice | undefined;

export function estimateRequest(request: JudgeRequest<VerdictKind>, priceOf: PriceOf): { inputTokens: number; outputTokens: number; costUsd: number | null } {
  const tokens = tokensOf(request);
  return { ...tokens, costUsd: costOfTokens(tokens, priceOf(request.model)) };
}

function costOfTokens(tokens: TokenEstimate, price: ModelPrice | undefined): number | null {
  return price ? costOf(price, { input: tokens.inputTokens, output: tokens.outputTokens, cacheRead: 0, cacheWrite: 0 }) : null;
}

export interface ExplainedCell {
  id: string;
  name: string;
  rubric: string[];
  candidate: string;
  judges: string[];
  judgeCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  deferReason?: string;
  /** A live run's agent: model, call budget (turns), limits. */
  agent?: string;
  /** Upper bound of the agent's model calls (its turn limit); 0 for a fixed response, and for a run an earlier cell already counts. */
  agentCalls: number;
}

export interface ExplainedPlan {
  cells: ExplainedCell[];
  totals: { cells: number; deferred: number; judgeCalls: number; agentCalls: number; inputTokens: number; outputTokens: number; costUsd: number; unpricedModels: string[] };
  assumptions: string;
}

/** A long text as the plan shows it: its start and its length (the plan repeats it per cell). */
function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

function describeRubric(rubric: Rubric): string[] {
  const source = rubric.source.type === "inline" ? "inline" : `${rubric.source.type} ${rubric.source.name}`;
  const head = `${rubric.kind} rubric (${source}), threshold ${rubric.threshold.toFixed(2)}${rubric.strict ? ", strict" : ""}`;
  if (rubric.kind === "freeform") return [head, `  "${clip(rubric.text)}"`];
  if (rubric.kind === "tree") return [head, `  ${longestPath(rubric.tree).length} questions on the longest path`];
  if (rubric.kind === "categories") return describeCategoryRubric(rubric.rubricSet, source);
  if (rubric.kind === "pairwise") {
    const { comparison: c } = rubric;
    const asks = c.question !== undefined ? `"${c.question}"` : `criteria: ${c.criteria.map((x) => x.name).join(", ")}`;
    return [`pairwise comparison (${source}): ${c.labels.a} vs ${c.labels.b}, ${c.items.length} pairs x 2 orders, ${asks}${c.expect ? `, expect ${c.expect}` : ""}`];
  }
  const options = [rubric.aggregation === "min" ? "aggregation min" : "weighted average", rubric.requireEvidence ? "evidence required" : ""].filter(Boolean);
  return [
    `${head}, ${options.join(", ")}`,
    ...rubric.criteria.map((c) => {
      const flags = [
        `weight ${c.weight}`,
        c.required ? "required" : "",
        c.guard ? "guard" : "",
        c.threshold !== undefined ? `threshold ${c.threshold.toFixed(2)}` : "",
        c.when ? `when ${c.when.contains !== undefined ? `contains ${JSON.stringify(clip(c.when.contains))}` : `regex /${clip(c.when.regex ?? "")}/`}` : "",
        c.examples.length ? plural(c.examples.length, "anchor") : "",
      ].filter(Boolean);
      return `  - ${c.name} (${flags.join(", ")})`;
    }),
  ];
}

type LiveCell = PlannedCell & { live: NonNullable<PlannedCell["live"]> };

/** The live sides of a comparison of cells, each run once. */
function comparedLiveSides(compared: ComparedCells): LiveCell[] {
  const sides = new Map(compared.pairs.flatMap((p) => [p.a, p.b]).filter((side): side is LiveCell => !side.candidate && side.live !== undefined).map((side) => [side.id, side]));
  return [...sides.values()];
}

function comparedLine(compared: ComparedCells, rubric: Rubric): string {
  const source = rubric.kind === "pairwise" ? rubric.comparison.cells?.eval : undefined;
  const live = comparedLiveSides(compared).length;
  const kind = live > 0 ? `${live} live run${live === 1 ? "" : "s"}${compared.sourcePlanned ? `, shared with eval ${JSON.stringify(source)}'s own cells` : ""}` : "fixed responses";
  return `${compared.pairs.length} pair${compared.pairs.length === 1 ? "" : "s"} of cells of eval ${JSON.stringify(source)} (${kind})`;
}


export function explainPlan(cells: PlannedCell[], priceOf: PriceOf): ExplainedPlan {
  const estimate = createRequestEstimator();
  const unpriced = new Set<string>();
  // An agent run is counted once, however many cells grade it (judge-model cells, a comparison of cells).
  const counted = new Set<string>();
  const agentCallsOf = (runs: LiveCell[]) =>
    runs.reduce((n, cell) => {
      const key = liveRunKey(cell);
      if (counted.has(key)) return n;
      counted.add(key);
      return n + cell.live.agent.maxTurns;
    }, 0);
  const explained = cells.map((cell): ExplainedCell => {
    const item = cell.cell?.item !== undefined ? `, dataset ${JSON.stringify(cell.eval.candidates?.dataset)} item ${JSON.stringify(cell.cell.item)}` : "";
    const candidate = cell.compared
      ? comparedLine(cell.compared, cell.eval.rubric)
      : cell.candidate
      ? `fixed response (${cell.candidate.response.length} chars)${item}${cell.cell?.prompt !== undefined ? `, prompt #${cell.cell.promptIndex}` : ""}`
      : cell.live
        ? `${liveCandidateLine(cell.live)}${item}`
        : `live agent run against server ${JSON.stringify(cell.eval.server ?? "(none)")}${item}`;
    const graded = cell.candidate ?? (cell.live ? assumedLiveCandidate(cell.live) : undefined);
    let inputTokens = 0;
    let outputTokens = 0;
    let costUsd: number | null = 0;
    let judgeCalls = 0;
    if (graded && cell.deferReason === undefined) {
      // Every judge of a cell sends the same requests but for the model (and
      // a juror's sample number), so they are estimated once per cell.
      const estimates = estimate({ rubric: cell.eval.rubric, maxTokens: cell.eval.judge.maxTokens, candidate: graded, whenUnknown: !cell.candidate });
      for (const judge of cell.judges) {
        const price = priceOf(judge.model);
        for (const tokens of estimates) {
          judgeCalls++;
          inputTokens += tokens.inputTokens;
          outputTokens += tokens.outputTokens;
          const cost = costOfTokens(tokens, price);
          if (cost === null) unpriced.add(judge.model);
          else if (costUsd !== null) costUsd += cost;
        }
      }
      if (cell.judges.some((j) => unpriced.has(j.model))) costUsd = null;
    }
    return {
      id: cell.id,
      name: cell.name,
      rubric: describeRubric(cell.eval.rubric),
      candidate,
      // With providers resolved, each judge shows where it runs: "local:qwen3-8b (local)".
      judges: cell.judges.map((j) => (j.provider === undefined ? j.label : `${j.label} (${j.provider})`)),
      judgeCalls,
      inputTokens,
      outputTokens,
      costUsd,
      ...(cell.deferReason !== undefined ? { deferReason: cell.deferReason } : {}),
      ...(cell.live ? { agent: liveAgentLine(cell.live) } : {}),
      agentCalls: cell.deferReason !== undefined ? 0 : cell.compared ? agentCallsOf(comparedLiveSides(cell.compared)) : cell.live ? agentCallsOf([{ ...cell, live: cell.live }]) : 0,
    };
  });
  return {
    cells: explained,
    totals: {
      cells: explained.length,
      deferred: explained.filter((c) => c.deferReason !== undefined).length,
      judgeCalls: explained.reduce((n, c) => n + c.judgeCalls, 0),
      agentCalls: explained.reduce((n, c) => n + c.agentCalls, 0),
      inputTokens: explained.reduce((n, c) => n + c.inputTokens, 0),
      outputTokens: explained.reduce((n, c) => n + c.outputTokens, 0),
      costUsd: explained.reduce((n, c) => n + (c.costUsd ?? 0), 0),
      unpricedModels: [...unpriced].sort(),
    },
    assumptions: `input ≈ prompt characters / 4 + ${REQUEST_OVERHEAD_TOKENS} tokens of framing per call, ${EXPECTED_OUTPUT_TOKENS} output tokens per call, no cache hits (an upper bound when anchors and rubrics repeat); a tree counts its longest path; a live run's transcript is ~${ASSUMED_TRANSCRIPT_CHARS} characters and its agent model calls are not in the cost`,
  };
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
      const cost = cell.costUsd === null ? "unpriced (model not in the pricing table)" : `~${formatUsd(cell.costUsd)}`;
      lines.push(`  judge calls: ${cell.judgeCalls}, ~${cell.inputTokens} input + ${cell.outputTokens} output tokens, ${cost}`);
    }
    lines.push("");
  }
  const t = plan.totals;
  lines.push(
    `Plan: ${t.cells} eval${t.cells === 1 ? "" : "s"}${t.deferred ? ` (${t.deferred} deferred)` : ""}, ${t.judgeCalls} judge calls, ~${t.inputTokens} input + ${t.outputTokens} output tokens, projected cost ~${formatUsd(t.costUsd)}`,
  );
  if (t.agentCalls) lines.push(`Live runs: up to ${t.agentCalls} agent model calls (the sum of their turn limits).`);
  if (t.unpricedModels.length) lines.push(`No price known for: ${t.unpricedModels.join(", ")} (not counted in the cost).`);
  lines.push(`Assumes ${plan.assumptions}.`);
  return lines.join("\n");
}
