import type { Rubric } from "../../config/types";
import type { ComparedCells, PlannedCell } from "../grade/planned-cell";
import { liveRunKey } from "../grade/planned-cell";
import { BATCH_PRICE_FACTOR, costOf, type ModelPrice } from "../cost/cost";
import type { RequestEstimator, TokenEstimate } from "./estimate-requests";
import { assumedLiveCandidate, generationUsd } from "./explain-live";
import {
  addProjected,
  createCacheProjector,
  NO_PROJECTED_INPUT,
  type CacheMinimumOf,
  type ProjectedInput,
} from "./cache-projection";
import type { CacheTtl } from "../ports/judge-port";
import { describeRubric } from "./describe-rubric";
import { liveAgentLine, liveCandidateLine } from "./explain-live";

// One cell of `eval --explain`: what it would grade, its judge calls and what
// they would cost. explain-plan.ts feeds it every cell in the order a run
// sends them (an array, or a stream of cells from planCells) and sums.

export type PriceOf = (model: string) => ModelPrice | undefined;

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
  /** The same with Message Batches (`--batch`, Run as batch): an Anthropic call's price halved (the cache's multipliers on top); another provider's call at its own price, made directly. */
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

/** The requests a cell's judges would send, each estimated once (undefined: deferred, or nothing to grade). */
export function estimateCell(
  cell: PlannedCell,
  estimate: RequestEstimator,
): TokenEstimate[] | undefined {
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
}

/**
 * Explains cells one at a time, in the order a run sends them (the cache projection remembers
 * which prefixes earlier calls wrote); `unpriced` collects the models with no price.
 */
export function createCellExplainer(input: {
  priceOf: PriceOf;
  options: ExplainOptions;
  cacheTtl: CacheTtl;
}): {
  explain: (cell: PlannedCell, estimates: TokenEstimate[] | undefined) => ExplainedCell;
  unpriced: Set<string>;
} {
  const { priceOf, options, cacheTtl } = input;
  const judgeCache = options.judgeCache ?? true;
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
  const explain = (cell: PlannedCell, estimates: TokenEstimate[] | undefined): ExplainedCell => {
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
  };
  return { explain, unpriced };
}
