import type { JudgeRequest, VerdictKind } from "../ports/judge-port";
import type { PlannedCell } from "../grade/planned-cell";
import { costOf, type ModelPrice } from "../cost/cost";
import {
  createRequestEstimator,
  EXPECTED_OUTPUT_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  tokensOf,
  type RequestEstimator,
  type TokenEstimate,
} from "./estimate-requests";
import { ASSUMED_TRANSCRIPT_CHARS } from "./explain-live";
import { addProjected, NO_PROJECTED_INPUT, type ProjectedInput } from "./cache-projection";
import { cacheTtlFor } from "../grade/cache-ttl";
import type { CacheTtl } from "../ports/judge-port";
import {
  createCellExplainer,
  estimateCell,
  type ExplainedCell,
  type ExplainOptions,
  type PriceOf,
} from "./explain-cell";

// `eval --explain`: what each cell would grade, with how many judge calls and
// what they would cost. Builds the requests a run would send, without
// sending any (their stable parts once per rubric: estimate-requests.ts).
// explainPlan takes the cells as an array; explainCells takes them as a
// stream (planCells) and holds only the totals and the first cells it lists.

export type { ExplainedCell, ExplainOptions, PriceOf };

export { EXPECTED_OUTPUT_TOKENS, REQUEST_OVERHEAD_TOKENS };

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

export interface ExplainedPlan {
  /** The cells listed: every cell, or the first ones of a large plan (explainCells). */
  cells: ExplainedCell[];
  /** Cells counted in the totals but not listed. */
  unlisted?: number;
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

type Totals = ExplainedPlan["totals"];

function emptyTotals(): Totals {
  return {
    evals: 0,
    cells: 0,
    deferred: 0,
    judgeCalls: 0,
    agentCalls: 0,
    generationCalls: 0,
    generationUsd: 0,
    inputTokens: 0,
    outputTokens: 0,
    naiveUsd: 0,
    costUsd: 0,
    batchUsd: 0,
    rerunUsd: 0,
    cacheInput: NO_PROJECTED_INPUT,
    unpricedModels: [],
  };
}

/** The totals with one more cell (evals and unpriced models are counted apart). */
function addCell(t: Totals, c: ExplainedCell): void {
  t.cells += 1;
  if (c.deferReason !== undefined) t.deferred += 1;
  t.judgeCalls += c.judgeCalls;
  t.agentCalls += c.agentCalls;
  t.generationCalls += c.generationCalls;
  t.generationUsd += c.generationUsd ?? 0;
  t.inputTokens += c.inputTokens;
  t.outputTokens += c.outputTokens;
  t.naiveUsd += c.naiveUsd ?? 0;
  t.costUsd += c.costUsd ?? 0;
  t.batchUsd += c.batchUsd ?? 0;
  t.rerunUsd += c.rerunUsd ?? 0;
  t.cacheInput = addProjected(t.cacheInput, c.cacheInput);
}

function planOf(input: {
  cells: ExplainedCell[];
  unlisted: number;
  totals: Totals;
  evals: Set<string>;
  unpriced: Set<string>;
  cacheTtl: CacheTtl;
  options: ExplainOptions;
}): ExplainedPlan {
  const judgeCache = input.options.judgeCache ?? true;
  return {
    cells: input.cells,
    ...(input.unlisted > 0 ? { unlisted: input.unlisted } : {}),
    totals: {
      ...input.totals,
      evals: input.evals.size,
      unpricedModels: [...input.unpriced].sort(),
    },
    cacheTtl: input.cacheTtl,
    rerunHint:
      judgeCache === "no store"
        ? "--store keeps the verdicts: a rerun of fixed responses then costs ~$0"
        : undefined,
    assumptions: ASSUMPTIONS(judgeCache),
  };
}

export function explainPlan(
  cells: PlannedCell[],
  priceOf: PriceOf,
  options: ExplainOptions = {},
): ExplainedPlan {
  const estimate = createRequestEstimator();
  // Every cell's requests first: their number chooses the TTL, which prices the writes.
  const estimated = cells.map((cell) => estimateCell(cell, estimate));
  const plannedCalls = estimated.reduce(
    (n, e, i) => n + (e?.length ?? 0) * cells[i]!.judges.length,
    0,
  );
  const cacheTtl = cacheTtlFor({ calls: plannedCalls, concurrency: options.concurrency ?? 8 });
  const explainer = createCellExplainer({ priceOf, options, cacheTtl });
  const totals = emptyTotals();
  const explained = cells.map((cell, i) => explainer.explain(cell, estimated[i]));
  for (const cell of explained) addCell(totals, cell);
  return planOf({
    cells: explained,
    unlisted: 0,
    totals,
    evals: new Set(cells.map((c) => c.eval.name)),
    unpriced: explainer.unpriced,
    cacheTtl,
    options,
  });
}

const ASSUMPTIONS = (judgeCache: boolean | "no store") =>
  `input ≈ prompt characters / 4 + ${REQUEST_OVERHEAD_TOKENS} tokens of framing per call, ${EXPECTED_OUTPUT_TOKENS} output tokens per call, with the prompt cache, the first call of each shared prefix (the tool and the whole rubric; that and a candidate other calls share) writes it at 1.25× the input price (2× with the 1-hour TTL) and the calls after it read it at 0.1×, only where the prefix reaches the model's minimum cacheable length (no saving for a model without one); ${RERUN_ASSUMPTIONS[String(judgeCache)]}; with Message Batches (--batch) every token of a Claude call costs half, the cache's multipliers on top (another provider's call is made directly, at its price); a tree counts its longest path; a live run's transcript is ~${ASSUMED_TRANSCRIPT_CHARS} characters and its agent model calls are not in the cost; a generated candidate's one call is priced apart, on its prompt and ${EXPECTED_OUTPUT_TOKENS} output tokens`;

/** Cells an estimator serves before a fresh one: its memos (per response) stay bounded on a stream. */
const ESTIMATOR_CELLS = 10_000;

/**
 * The same for a stream of cells (planCells), in constant memory: every cell is priced as it comes
 * (the figures are explainPlan's), the first `listCells` are kept to be listed, and the TTL is
 * chosen from `plannedCalls` (planTotals), since the calls cannot be counted before pricing.
 */
export async function explainCells(input: {
  cells: AsyncIterable<PlannedCell>;
  priceOf: PriceOf;
  options?: ExplainOptions;
  plannedCalls: number;
  listCells: number;
}): Promise<ExplainedPlan> {
  const options = input.options ?? {};
  const cacheTtl = cacheTtlFor({
    calls: input.plannedCalls,
    concurrency: options.concurrency ?? 8,
  });
  const explainer = createCellExplainer({ priceOf: input.priceOf, options, cacheTtl });
  const totals = emptyTotals();
  const listed: ExplainedCell[] = [];
  const evals = new Set<string>();
  let estimate: RequestEstimator = createRequestEstimator();
  let seen = 0;
  for await (const cell of input.cells) {
    if (++seen % ESTIMATOR_CELLS === 0) estimate = createRequestEstimator();
    evals.add(cell.eval.name);
    const explained = explainer.explain(cell, estimateCell(cell, estimate));
    addCell(totals, explained);
    if (listed.length < input.listCells) listed.push(explained);
  }
  return planOf({
    cells: listed,
    unlisted: totals.cells - listed.length,
    totals,
    evals,
    unpriced: explainer.unpriced,
    cacheTtl,
    options,
  });
}
