import type { TokenUsage } from "../ports/judge-port";
import { addTokenUsage } from "../ports/judge-port";
import { batchPrice, costOf, type ModelPrice } from "./cost";
import type { PromptCacheSavings, Saving, Savings } from "../results/savings-types";

// What a run saved, in dollars, from its judge calls' stored token usage and
// the price table: the one computation behind every report and the run page,
// so no two of them can disagree. Pure: prices come in as a function.
//
// - The prompt cache: a token read from it is billed at 0.1x the input price
//   instead of 1x (a saving); a token written to it at 1.25x (a negative
//   saving). Net is their sum: what the calls would have cost with every
//   cached token sent as plain input, minus what they cost.
// - The judge cache: a verdict reused instead of asked again saves what the
//   call cost when it was made.
// - Message Batches: a batched call is billed at half price; `batch` is what
//   the same calls (same tokens, cache reads and writes) would have cost at
//   standard prices minus what they cost. Its cache figures are at batch prices.
//
// A model with no price has no dollar figure: its tokens are still counted,
// and the figure says `unpriced` rather than pretend it saved nothing.

/** One model's calls, summed: what the computation needs (a run's rows in SQL sum to this, as a report's calls do). */
export interface ModelCallTotals {
  model: string;
  /** Tokens of the calls made (a reused verdict spends none). */
  usage: TokenUsage;
  /** Verdicts reused from the judge cache. */
  reusedCalls: number;
  /** What the reused verdicts cost when they were made, over those whose cost is known. */
  reusedUsd: number;
  /** Reused verdicts whose original cost is unknown (an unpriced model). */
  reusedUnpriced: number;
  /** Calls made through Message Batches, billed at batch prices (their totals are kept apart from the model's standard calls). */
  batchedCalls?: number;
  /**
   * The standard price of these calls when the caller knows it better than
   * `priceOf(model)` does (the store's calls, priced by the provider that
   * served them); null: unpriced.
   */
  price?: ModelPrice | null;
}

/** A call as reports and the store record it. */
export interface SavingsCall {
  model: string;
  usage: TokenUsage;
  costUsd: number | null;
  reused?: { savedUsd: number | null };
  /** Made through Message Batches (`--batch`). */
  batched?: unknown;
}

export const NO_SAVING: Saving = { usd: 0, unpriced: false };

/** Two savings together: unpriced if either is, null only if neither has a priced part. */
export function addSaving(a: Saving, b: Saving): Saving {
  // Nothing (no tokens, or $0) adds nothing: "unpriced" plus nothing stays "unpriced", not "$0.00 + unpriced".
  const nothing = (s: Saving) => !s.unpriced && !s.usd;
  if (nothing(a)) return b;
  if (nothing(b)) return a;
  const usd = a.usd === null ? b.usd : b.usd === null ? a.usd : a.usd + b.usd;
  return { usd, unpriced: a.unpriced || b.unpriced };
}

/** A saving over `count` tokens (or calls) of one model: null dollars when it has no price. */
function savingOf(count: number, usd: () => number, priced: boolean): Saving {
  if (count === 0) return NO_SAVING;
  return priced ? { usd: usd(), unpriced: false } : { usd: null, unpriced: true };
}

/** The prompt-cache savings of one model's tokens at its price (undefined: unpriced). */
export function promptCacheSavingsOf(
  price: ModelPrice | undefined,
  usage: Pick<TokenUsage, "cacheRead" | "cacheWrite" | "cacheWrite1h">,
): PromptCacheSavings {
  const none = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  // Each as "sent as plain input" minus "as billed", with the one cost formula (1-hour writes at their own price).
  const reads = savingOf(
    usage.cacheRead,
    () =>
      costOf(price!, { ...none, input: usage.cacheRead }) -
      costOf(price!, { ...none, cacheRead: usage.cacheRead }),
    price !== undefined,
  );
  const writes = savingOf(
    usage.cacheWrite,
    () =>
      costOf(price!, { ...none, input: usage.cacheWrite }) -
      costOf(price!, {
        ...none,
        cacheWrite: usage.cacheWrite,
        cacheWrite1h: usage.cacheWrite1h ?? 0,
      }),
    price !== undefined,
  );
  return {
    readTokens: usage.cacheRead,
    writeTokens: usage.cacheWrite,
    reads,
    writes,
    net: addSaving(reads, writes),
  };
}

/** Adds one call to its model's totals (a run's calls folded one by one, as a report streams them). */
export function addCallToTotals(byModel: Map<string, ModelCallTotals>, call: SavingsCall): void {
  // A batched call is billed at other prices: its model's batched calls are summed apart.
  const batched = Boolean(call.batched) && !call.reused;
  const key = batched ? `${call.model}\u0000batch` : call.model;
  let totals = byModel.get(key);
  if (!totals) {
    totals = {
      model: call.model,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      reusedCalls: 0,
      reusedUsd: 0,
      reusedUnpriced: 0,
      ...(batched ? { batchedCalls: 0 } : {}),
    };
    byModel.set(key, totals);
  }
  if (batched) totals.batchedCalls = (totals.batchedCalls ?? 0) + 1;
  if (call.reused) {
    totals.reusedCalls++;
    if (call.reused.savedUsd === null) totals.reusedUnpriced++;
    else totals.reusedUsd += call.reused.savedUsd;
    return;
  }
  totals.usage = addTokenUsage(totals.usage, call.usage);
}

/** Each model's calls summed, in order of first appearance. */
export function callTotalsByModel(calls: readonly SavingsCall[]): ModelCallTotals[] {
  const byModel = new Map<string, ModelCallTotals>();
  for (const call of calls) addCallToTotals(byModel, call);
  return [...byModel.values()];
}

/** The savings of a run (or of one eval) from its calls summed per model. */
export function savingsOf(input: {
  models: readonly ModelCallTotals[];
  priceOf: (model: string) => ModelPrice | undefined;
}): Savings {
  let reads = NO_SAVING;
  let writes = NO_SAVING;
  let readTokens = 0;
  let writeTokens = 0;
  let reusedCalls = 0;
  let reused = NO_SAVING;
  let batchedCalls = 0;
  let batch = NO_SAVING;
  for (const totals of input.models) {
    const standard =
      totals.price === undefined ? input.priceOf(totals.model) : (totals.price ?? undefined);
    const batched = (totals.batchedCalls ?? 0) > 0;
    const price = standard && batched ? batchPrice(standard) : standard;
    if (batched) {
      batchedCalls += totals.batchedCalls!;
      batch = addSaving(
        batch,
        savingOf(
          totals.batchedCalls!,
          () => costOf(standard!, totals.usage) - costOf(price!, totals.usage),
          standard !== undefined,
        ),
      );
    }
    const cache = promptCacheSavingsOf(price, totals.usage);
    reads = addSaving(reads, cache.reads);
    writes = addSaving(writes, cache.writes);
    readTokens += cache.readTokens;
    writeTokens += cache.writeTokens;
    reusedCalls += totals.reusedCalls;
    const known = totals.reusedCalls - totals.reusedUnpriced;
    // Known costs are dollars; unknown ones make the figure unpriced (all of it when none is known).
    reused = addSaving(
      reused,
      known > 0
        ? { usd: totals.reusedUsd, unpriced: totals.reusedUnpriced > 0 }
        : totals.reusedUnpriced > 0
          ? { usd: null, unpriced: true }
          : NO_SAVING,
    );
  }
  const net = addSaving(reads, writes);
  return {
    promptCache: { readTokens, writeTokens, reads, writes, net },
    judgeCache: { calls: reusedCalls, saved: reused },
    ...(batchedCalls > 0 ? { batch: { calls: batchedCalls, saved: batch } } : {}),
    total: addSaving(addSaving(net, reused), batch),
  };
}

/** The savings of a set of calls (a report's, or one eval's). */
export function savingsOfCalls(
  calls: readonly SavingsCall[],
  priceOf: (model: string) => ModelPrice | undefined,
): Savings {
  return savingsOf({ models: callTotalsByModel(calls), priceOf });
}
