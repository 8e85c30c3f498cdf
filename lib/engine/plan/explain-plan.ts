import type { Rubric } from "../../config/types";
import type { JudgeRequest, VerdictKind } from "../ports/judge-port";
import type { ComparedCells, PlannedCell } from "../grade/planned-cell";
import { BATCH_PRICE_FACTOR, costOf, type ModelPrice } from "../cost/cost";
import { formatUsd, plural } from "../results/format-score";
import { describeRubric } from "./describe-rubric";
import {
  createRequestEstimator,
  EXPECTED_OUTPUT_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  tokensOf,
  type TokenEstimate,
} from "./estimate-requests";
import { liveRunKey } from "../grade/planned-cell";
import {
  ASSUMED_TRANSCRIPT_CHARS,
  assumedLiveCandidate,
  generationUsd,
  liveAgentLine,
  liveCandidateLine,
} from "./explain-live";
import {
  addProjected,
  createCacheProjector,
  NO_PROJECTED_INPUT,
  type CacheMinimumOf,
  type ProjectedInput,
} from "./cache-projection";
import { cacheTtlFor } from "../grade/cache-ttl";
import type { CacheTtl } from "../ports/judge-port";

// `eval --explain`: what each cell would grade, with how many judge calls and
// what they would cost. Builds the requests a run would send, without
// sending any (their stable parts once per rubric: estimate-requests.ts).

export { EXPECTED_OUTPUT_TOKENS, REQUEST_OVERHEAD_TOKENS };

export type PriceOf = (model: string) => ModelPrice | undefined;

export function estimateRequest(
  request: JudgeRequest<VerdictKind>,
  priceOf: PriceOf,
): { inputTokens: number; outputTokens: number; costUsd: number | null } {
  const tokens = tokensOf(request);
  return { ...tokens, costUsd: costOfTokens(tokens, priceOf(request.model)) };
}

function costOfTokens(tokens: TokenEstimate, price: ModelPrice | undefined): number | null {
  return price
    ? costOf(price, {
        input: tokens.inputTokens,
        output: tokens.outputTokens,
        cacheRead: 0,
        cacheWrite: 0,
      })
    : null;
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
  /** Every input token at the full input price, of the priced judges' calls; null when no judge model is priced. */
  naiveUsd: number | null;
  /** Judge calls of a model with no known price: not in the figures, said beside them. */
  unpricedCalls: number;
  /** Projected with the prompt cache (writes and reads); the naive cost when no minimum is known for the model. */
  costUsd: number | null;
  /** The same with Message Batches (`--batch`, Run as batch): every price halved, the cache's multipliers on top. */
  batchUsd: number | null;
  /**
   * An unchanged rerun: 0 when the judge cache answers every call (a fixed response); a live run
   * grades a new transcript.
   */
  rerunUsd: number | null;
  /** The input tokens as the prompt cache would bill them. */
  cacheInput: ProjectedInput;
  deferReason?: string;
  /** A live run's agent: model, call budget (turns), limits. */
  agent?: string;
  /**
   * Upper bound of the agent's model calls (its turn limit); 0 for a fixed response, and for a run
   * an earlier cell already counts.
   */
  agentCalls: number;
  /** Generated candidates: their requests (one each, counted once however many cells grade it) and projected cost (null when unpriced). */
  generationCalls: number;
  generationUsd: number | null;
}

export interface ExplainedPlan {
  cells: ExplainedCell[];
  totals: {
    /** The suite's evals these cells come from (a matrix or a dataset makes several cells of one eval). */
    evals: number;
    cells: number;
    deferred: number;
    judgeCalls: number;
    agentCalls: number;
    generationCalls: number;
    generationUsd: number;
    inputTokens: number;
    outputTokens: number;
    naiveUsd: number;
    costUsd: number;
    batchUsd: number;
    rerunUsd: number;
    cacheInput: ProjectedInput;
    unpricedModels: string[];
  };
  /** The TTL the run would give the rubric's prefix (cache-ttl.ts). */
  cacheTtl: CacheTtl;
  /** How an unchanged rerun would cost less, when this one keeps no verdicts (a CLI run without the store). */
  rerunHint?: string;
  assumptions: string;
}

type LiveCell = PlannedCell & { live: NonNullable<PlannedCell["live"]> };

/** The live sides of a comparison of cells, each run once. */
function comparedLiveSides(compared: ComparedCells): LiveCell[] {
  const sides = new Map(
    compared.pairs
      .flatMap((p) => [p.a, p.b])
      .filter((side): side is LiveCell => !side.candidate && side.live !== undefined)
      .map((side) => [side.id, side]),
  );
  return [...sides.values()];
}

function comparedLine(compared: ComparedCells, rubric: Rubric): string {
  const source = rubric.kind === "pairwise" ? rubric.comparison.cells?.eval : undefined;
  const live = comparedLiveSides(compared).length;
  const kind =
    live > 0
      ? `${live} live run${live === 1 ? "" : "s"}${
          compared.sourcePlanned ? `, shared with eval ${JSON.stringify(source)}'s own cells` : ""
        }`
      : "fixed responses";
  return (
    `${compared.pairs.length} pair${compared.pairs.length === 1 ? "" : "s"} of cells of ` +
    `eval ${JSON.stringify(source)} (${kind})`
  );
}

/** What the rerun figure assumes, by ExplainOptions.judgeCache. */
const RERUN_ASSUMPTIONS: Record<string, string> = {
  true:
    "an unchanged rerun of fixed responses is answered by the judge cache (a live run grades " +
    "a new transcript; judge errors are not cached, so a rerun pays for them again)",
  false: "an unchanged rerun pays again in full (--no-cache asks the judge afresh)",
  "no store":
    "an unchanged rerun pays again in full: without --store (or DATABASE_URL) no verdict " +
    "is kept for the judge cache (judge errors are never cached)",
};

export interface ExplainOptions {
  /** The models' minimum cacheable prefixes (lib/judge's table); without it no cache saving is projected. */
  cacheMinimumOf?: CacheMinimumOf;
  /** The run's concurrency, which chooses the TTL (8 when left out, the CLI's default). */
  concurrency?: number;
  /**
   * Whether an unchanged rerun finds this run's verdicts: true (the judge cache,
   * kept in the run store), false (`--no-cache`), or "no store" (a CLI run
   * without `--store` or DATABASE_URL keeps no verdicts): the last two pay again.
   */
  judgeCache?: boolean | "no store";
  /**
   * Which judge models Message Batches would carry (`goesThroughBatches` of their provider);
   * without it, every model. The others cost the same with batches.
   */
  batchable?: (model: string) => boolean;
}

export function explainPlan(
  cells: PlannedCell[],
  priceOf: PriceOf,
  options: ExplainOptions = {},
): ExplainedPlan {
  const estimate = createRequestEstimator();
  const judgeCache = options.judgeCache ?? true;
  // Every cell's requests first: their number chooses the TTL, which prices the writes.
  const estimated = cells.map((cell) => {
    const graded =
      cell.candidate ??
      (cell.live
        ? {
            ...assumedLiveCandidate(cell.live),
            ...(cell.reference ? { reference: cell.reference } : {}),
          }
        : undefined);
    if (!graded || cell.deferReason !== undefined) return undefined;
    // Every judge of a cell sends the same requests but for the model (and
    // a juror's sample number), so they are estimated once per cell.
    return estimate({
      rubric: cell.eval.rubric,
      maxTokens: cell.eval.judge.maxTokens,
      candidate: graded,
      whenUnknown: !cell.candidate,
    });
  });
  const plannedCalls = estimated.reduce(
    (n, e, i) => n + (e?.length ?? 0) * cells[i]!.judges.length,
    0,
  );
  const cacheTtl = cacheTtlFor({ calls: plannedCalls, concurrency: options.concurrency ?? 8 });
  const project = createCacheProjector({
    cacheMinimumOf: options.cacheMinimumOf ?? (() => undefined),
    ttl: cacheTtl,
  });
  const unpriced = new Set<string>();
  // An agent run is counted once, however many cells grade it (judge-model cells, a comparison of cells).
  const counted = new Set<string>();
  const agentCallsOf = (runs: LiveCell[]) =>
    runs.reduce((n, cell) => {
      const key = liveRunKey(cell);
      if (counted.has(key)) return n;
      counted.add(key);
      // An agent model without a price (a local one) is spent but not counted: --max-cost cannot bound it.
      if (priceOf(cell.live.agent.model) === undefined) unpriced.add(cell.live.agent.model);
      return n + cell.live.agent.maxTurns;
    }, 0);
  // A generated candidate's one request, priced like a judge call (agentCallsOf has counted it once already).
  const generationOf = (cell: PlannedCell, agentCalls: number) =>
    cell.live && cell.live.server === undefined && agentCalls > 0
      ? {
          generationCalls: agentCalls,
          generationUsd: generationUsd(cell.live, priceOf(cell.live.agent.model)),
        }
      : { generationCalls: 0, generationUsd: 0 };
  const explained = cells.map((cell, index): ExplainedCell => {
    const item =
      cell.cell?.item !== undefined
        ? `, dataset ${JSON.stringify(cell.eval.candidates?.dataset)} item ${JSON.stringify(cell.cell.item)}`
        : "";
    const candidate = cell.compared
      ? comparedLine(cell.compared, cell.eval.rubric)
      : cell.candidate
        ? `fixed response (${cell.candidate.response.length} chars)${item}${
            cell.cell?.prompt !== undefined ? `, prompt #${cell.cell.promptIndex}` : ""
          }`
        : cell.live
          ? `${liveCandidateLine(cell.live)}${item}`
          : `live agent run against server ${JSON.stringify(cell.eval.server ?? "(none)")}${item}`;
    let inputTokens = 0;
    let outputTokens = 0;
    let naiveUsd: number | null = 0;
    let costUsd: number | null = 0;
    let batchUsd = 0;
    let cacheInput = NO_PROJECTED_INPUT;
    let judgeCalls = 0;
    let unpricedCalls = 0;
    const estimates = estimated[index];
    if (estimates) {
      for (const judge of cell.judges) {
        const price = priceOf(judge.model);
        // Jurors of one model send the same candidate: its block is shared even when one criterion grades it.
        const jury = cell.judges.filter((j) => j.model === judge.model).length > 1;
        for (const tokens of estimates) {
          judgeCalls++;
          inputTokens += tokens.inputTokens;
          outputTokens += tokens.outputTokens;
          const shared =
            jury && tokens.prefix
              ? { ...tokens, prefix: { ...tokens.prefix, candidateShared: true } }
              : tokens;
          const projected = project(judge.model, shared);
          cacheInput = addProjected(cacheInput, projected);
          if (!price) {
            unpriced.add(judge.model);
            unpricedCalls++;
            continue;
          }
          const output = tokens.outputTokens;
          if (naiveUsd !== null)
            naiveUsd += costOf(price, {
              input: tokens.inputTokens,
              output,
              cacheRead: 0,
              cacheWrite: 0,
            });
          if (costUsd !== null) {
            const cost = costOf(price, {
              input: projected.input,
              output,
              cacheRead: projected.read,
              cacheWrite: projected.write5m + projected.write1h,
              cacheWrite1h: projected.write1h,
            });
            costUsd += cost;
            batchUsd +=
              options.batchable && !options.batchable(judge.model)
                ? cost
                : cost * BATCH_PRICE_FACTOR;
          }
        }
      }
      // A mix keeps its priced part (the unpriced calls are counted apart); only an eval no judge prices has no figure.
      if (unpricedCalls > 0 && unpricedCalls === judgeCalls) naiveUsd = costUsd = null;
    }
    const agentCalls =
      cell.deferReason !== undefined
        ? 0
        : cell.compared
          ? agentCallsOf(comparedLiveSides(cell.compared))
          : cell.live
            ? agentCallsOf([{ ...cell, live: cell.live }])
            : 0;
    // A fixed response's verdicts are in the judge cache after the first run; a live run grades a new transcript.
    const rerunUsd = judgeCache === true && cell.candidate ? 0 : costUsd;
    return {
      id: cell.id,
      name: cell.name,
      rubric: describeRubric(cell.eval.rubric),
      candidate,
      // With providers resolved, each judge shows where it runs: "local:qwen3-8b (local)".
      judges: cell.judges.map((j) =>
        j.provider === undefined ? j.label : `${j.label} (${j.provider})`,
      ),
      judgeCalls,
      unpricedCalls,
      inputTokens,
      outputTokens,
      naiveUsd,
      costUsd,
      batchUsd: costUsd === null ? null : batchUsd,
      rerunUsd,
      cacheInput,
      ...(cell.deferReason !== undefined ? { deferReason: cell.deferReason } : {}),
      ...(cell.live ? { agent: liveAgentLine(cell.live) } : {}),
      agentCalls,
      ...generationOf(cell, agentCalls),
    };
  });
  return {
    cells: explained,
    totals: {
      evals: new Set(cells.map((c) => c.eval.name)).size,
      cells: explained.length,
      deferred: explained.filter((c) => c.deferReason !== undefined).length,
      judgeCalls: explained.reduce((n, c) => n + c.judgeCalls, 0),
      agentCalls: explained.reduce((n, c) => n + c.agentCalls, 0),
      generationCalls: explained.reduce((n, c) => n + c.generationCalls, 0),
      generationUsd: explained.reduce((n, c) => n + (c.generationUsd ?? 0), 0),
      inputTokens: explained.reduce((n, c) => n + c.inputTokens, 0),
      outputTokens: explained.reduce((n, c) => n + c.outputTokens, 0),
      naiveUsd: explained.reduce((n, c) => n + (c.naiveUsd ?? 0), 0),
      costUsd: explained.reduce((n, c) => n + (c.costUsd ?? 0), 0),
      batchUsd: explained.reduce((n, c) => n + (c.batchUsd ?? 0), 0),
      rerunUsd: explained.reduce((n, c) => n + (c.rerunUsd ?? 0), 0),
      cacheInput: explained.reduce((sum, c) => addProjected(sum, c.cacheInput), NO_PROJECTED_INPUT),
      unpricedModels: [...unpriced].sort(),
    },
    cacheTtl,
    rerunHint:
      judgeCache === "no store"
        ? "--store keeps the verdicts: a rerun of fixed responses then costs ~$0"
        : undefined,
    assumptions: `input ≈ prompt characters / 4 + ${REQUEST_OVERHEAD_TOKENS} tokens of framing per call, ${EXPECTED_OUTPUT_TOKENS} output tokens per call, with the prompt cache, the first call of each shared prefix (the tool and the whole rubric; that and a candidate other calls share) writes it at 1.25× the input price (2× with the 1-hour TTL) and the calls after it read it at 0.1×, only where the prefix reaches the model's minimum cacheable length (no saving for a model without one); ${RERUN_ASSUMPTIONS[String(judgeCache)]}; with Message Batches (--batch) every token costs half, the cache's multipliers on top; a tree counts its longest path; a live run's transcript is ~${ASSUMED_TRANSCRIPT_CHARS} characters and its agent model calls are not in the cost; a generated candidate's one call is priced apart, on its prompt and ${EXPECTED_OUTPUT_TOKENS} output tokens`,
  };
}

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
      : `${write5m + write1h} input tokens written, ${read} read`;
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
        `  judge calls: ${cell.judgeCalls}, ~${cell.inputTokens} input + ${cell.outputTokens} output tokens, ${cost}`,
      );
      if (cell.costUsd !== null) lines.push(`  cost: ${costLine(cell)}`);
      if (cell.generationCalls > 0)
        lines.push(
          `  generation calls: ${cell.generationCalls}, ${cell.generationUsd === null ? "unpriced (model not in the pricing table)" : `~${formatUsd(cell.generationUsd)}`}`,
        );
    }
    lines.push("");
  }
  const t = plan.totals;
  lines.push(
    `Plan: ${plural(t.evals, "eval")}, ` +
      `${plural(t.cells, "cell")}${t.deferred ? ` (${t.deferred} deferred)` : ""}, ` +
      `${plural(t.judgeCalls, "judge call")}, ~${t.inputTokens} input + ${t.outputTokens} ` +
      `output tokens, projected cost ~${formatUsd(t.costUsd)}`,
    `Cost: ${costLine(t)}${plan.rerunHint ? ` (${plan.rerunHint})` : ""}; ${ttlClause(plan)}`,
  );
  if (t.generationCalls)
    lines.push(
      `Generation: ${plural(t.generationCalls, "generation call")} (a model answers each prompt, no tools), projected cost ~${formatUsd(t.generationUsd)}; with the judge calls ~${formatUsd(t.generationUsd + t.costUsd)}.`,
    );
  if (t.agentCalls > t.generationCalls)
    lines.push(
      `Live runs: up to ${t.agentCalls - t.generationCalls} agent model calls (the sum of their turn limits).`,
    );
  if (t.unpricedModels.length)
    lines.push(`No price known for: ${t.unpricedModels.join(", ")} (not counted in the cost).`);
  lines.push(`Assumes ${plan.assumptions}.`);
  return lines.join("\n");
}
