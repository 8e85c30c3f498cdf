import { loadSuite } from "../../config/load-suite";
import type { ConfigIssue, ServerConfig } from "../../config/types";
import type { ProviderConfig } from "../../config/provider-schema";
import { checkServerProviders } from "../../config/server-providers";
import { goesThroughBatches, type ResolvedModel } from "./resolve-provider";
import { planSuite } from "./plan-suite";
import { explainPlan, type PriceOf } from "./explain-plan";
import type { CacheMinimumOf } from "./cache-projection";

// What the editor shows while someone types: the loader's located issues (the
// same ones `rubric-studio validate` prints) and, when the suite loads, the
// plan `eval --explain` would show, in figures. Pure: the caller passes the
// pricing table and says whether the server has a judge key.

export interface DraftPlan {
  /** The suite's evals the cells come from (a matrix or a dataset makes several cells of one eval). */
  evalCount: number;
  cells: number;
  judgeCalls: number;
  /** Upper bound of live agents' model calls (not priced); generation calls included. */
  agentCalls: number;
  /** Generated candidates: one request each, priced apart from the judge calls. */
  generationCalls: number;
  generationUsd: number;
  /** Every input token at full price. */
  naiveUsd: number;
  /** Projected with the prompt cache. */
  costUsd: number;
  /** The same with Message Batches (Run as batch): half price. */
  batchUsd: number;
  /** An unchanged rerun (the judge cache answers a fixed response's calls). */
  rerunUsd: number;
  /** The same figures per eval (cell), as `eval --explain` shows them; null costs for an unpriced model. */
  evals: DraftEvalCost[];
  unpricedModels: string[];
  /** Cells that will not be graded, and why (an unknown server, no judge key...). */
  deferred: { name: string; reason: string }[];
  /** Each judge and agent model of the plan and the provider it resolves to on this server (with `resolveModel`). */
  models: DraftModel[];
  assumptions: string;
}

export interface DraftEvalCost {
  /** The cell's name (an eval's name, with its matrix cell or dataset item in brackets). */
  name: string;
  /** The suite's eval the cell comes from: the editor's plan sums an eval's cells into one row. */
  eval: string;
  judgeCalls: number;
  naiveUsd: number | null;
  costUsd: number | null;
  batchUsd: number | null;
  rerunUsd: number | null;
  /** Judge calls of unpriced models, left out of the figures (which are then their priced part). */
  unpricedCalls: number;
  /** Projected input tokens written to the prompt cache, and read from it (what `--explain` gives beside the cost). */
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

export interface DraftModel {
  model: string;
  role: "judge" | "agent";
  provider: string;
  /** The model id sent to the provider (the prefix removed). */
  providerModel: string;
  /** Why it would defer here (its provider's key is not set on the server). */
  unavailable?: string;
}

export interface DraftCheck {
  issues: ConfigIssue[];
  /** Null while the suite has errors: there is nothing to plan. */
  plan: DraftPlan | null;
}

export function checkDraft(input: {
  text: string;
  file: string;
  priceOf: PriceOf;
  /** The models' minimum cacheable prefixes (lib/judge's table), for the cache projection. */
  cacheMinimumOf?: CacheMinimumOf;
  defaultModel: string;
  judgeUnavailable?: string;
  /** The server's MCP allow-list as a check (lib/live's AllowServer): true, or why a server would be refused. */
  allowServer?: (server: { name: string; config: ServerConfig }) => true | string;
  /** The dashboard's providers: the suite's own providers: block must match them (located errors otherwise). */
  serverProviders?: Readonly<Record<string, ProviderConfig>>;
  /** Which provider serves a model on this server, and whether its key is set there. */
  resolveModel?: (model: string) => ResolvedModel;
}): DraftCheck {
  const loaded = loadSuite({ text: input.text, file: input.file });
  if (!loaded.ok) return { issues: loaded.issues, plan: null };
  if (input.serverProviders) {
    const refused = checkServerProviders({
      text: input.text,
      suite: loaded.value,
      server: input.serverProviders,
    });
    if (refused.length > 0) return { issues: [...refused, ...loaded.warnings], plan: null };
  }
  const resolve = input.resolveModel;
  // Calls and cost are those of a real run even when this server has no key,
  // as `eval --explain` shows them: the author is sizing the suite, not this box.
  const planned = planSuite({
    suite: loaded.value,
    defaultModel: input.defaultModel,
    ...(resolve
      ? { resolveModel: (model: string) => ({ provider: resolve(model).provider }) }
      : {}),
  });
  const explained = explainPlan(planned, input.priceOf, {
    ...(input.cacheMinimumOf ? { cacheMinimumOf: input.cacheMinimumOf } : {}),
    ...(resolve ? { batchable: (model: string) => goesThroughBatches(resolve(model)) } : {}),
  });
  const refusal = (index: number): string | undefined => {
    const live = planned[index]?.live;
    if (!live?.server || live.serverName === undefined || !input.allowServer) return undefined;
    const verdict = input.allowServer({ name: live.serverName, config: live.server });
    return verdict === true
      ? undefined
      : `server "${live.serverName}" is not allowed here: ${verdict}`;
  };
  const deferred = explained.cells.flatMap((cell, index) => {
    const noKey = resolve
      ? planned[index]?.judges.map((j) => resolve(j.model).unavailable).find((r) => r !== undefined)
      : undefined;
    const reason = cell.deferReason ?? input.judgeUnavailable ?? noKey ?? refusal(index);
    return reason === undefined ? [] : [{ name: cell.name, reason }];
  });
  return {
    issues: loaded.warnings,
    plan: {
      evalCount: explained.totals.evals,
      cells: explained.totals.cells,
      judgeCalls: explained.totals.judgeCalls,
      agentCalls: explained.totals.agentCalls,
      generationCalls: explained.totals.generationCalls,
      generationUsd: explained.totals.generationUsd,
      naiveUsd: explained.totals.naiveUsd,
      costUsd: explained.totals.costUsd,
      batchUsd: explained.totals.batchUsd,
      rerunUsd: explained.totals.rerunUsd,
      evals: explained.cells.map((c, index) => ({
        name: c.name,
        eval: planned[index]?.eval.name ?? c.name,
        judgeCalls: c.judgeCalls,
        naiveUsd: c.naiveUsd,
        costUsd: c.costUsd,
        batchUsd: c.batchUsd,
        rerunUsd: c.rerunUsd,
        unpricedCalls: c.unpricedCalls,
        cacheWriteTokens: c.cacheInput.write5m + c.cacheInput.write1h,
        cacheReadTokens: c.cacheInput.read,
      })),
      unpricedModels: explained.totals.unpricedModels,
      deferred,
      models: resolve ? draftModels(planned, resolve) : [],
      assumptions: explained.assumptions,
    },
  };
}

/** The plan's judge and agent models, each once, with the provider it resolves to. */
function draftModels(
  planned: ReturnType<typeof planSuite>,
  resolve: (model: string) => ResolvedModel,
): DraftModel[] {
  const seen = new Map<string, DraftModel>();
  const add = (model: string, role: DraftModel["role"]) => {
    const key = `${role}\u0000${model}`;
    if (seen.has(key)) return;
    const resolved = resolve(model);
    seen.set(key, {
      model,
      role,
      provider: resolved.provider,
      providerModel: resolved.model,
      ...(resolved.unavailable !== undefined ? { unavailable: resolved.unavailable } : {}),
    });
  };
  for (const cell of planned) {
    for (const judge of cell.judges) add(judge.model, "judge");
    if (cell.live) add(cell.live.agent.model, "agent");
  }
  return [...seen.values()];
}
