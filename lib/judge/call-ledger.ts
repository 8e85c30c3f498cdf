import { createHash } from "node:crypto";
import { costOf, type ModelPrice } from "../engine/cost/cost";
import type {
  JudgeCallRecord,
  JudgeErrorKind,
  JudgeOutcome,
  JudgeRequest,
  TokenUsage,
  VerdictKind,
} from "../engine/ports/judge-port";
import type { Verdict } from "../engine/ports/verdict";

/** What one logical call accumulates across its attempts (and, for the judge, its repair). */
export interface CallState {
  attempts: number;
  usage: TokenUsage;
  /** A repair request was answered (and billed): the record says `repaired`. */
  repaired?: boolean;
  /** The `model` of the last reply: the version that answered. */
  modelVersion?: string;
}

/**
 * The system prompt's SHA-256, hashed once per prompt: every call of an eval
 * sends the same rubric (the same string), and a run makes a million calls.
 */
const promptHashes = new Map<string, string>();
const MAX_PROMPT_HASHES = 256;
function sha256Of(text: string): string {
  let hash = promptHashes.get(text);
  if (hash === undefined) {
    hash = createHash("sha256").update(text).digest("hex");
    if (promptHashes.size >= MAX_PROMPT_HASHES) promptHashes.clear();
    promptHashes.set(text, hash);
  }
  return hash;
}

/**
 * One judge call's ledger, the same for every provider's adapter: the state
 * its attempts add to, the record it ends with (latency, tokens, priced from
 * the provider's table, or null when unpriced), and a failed outcome.
 */
export function openCallLedger(input: {
  request: JudgeRequest<VerdictKind>;
  price: ModelPrice | undefined;
  now: () => number;
  /** The temperature the model samples at, where the adapter knows it. */
  temperature?: number;
}) {
  const { request, price, now } = input;
  const systemPromptSha256 = sha256Of(request.stablePrompt);
  const started = now();
  const state: CallState = {
    attempts: 0,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  const record = (raw: unknown): JudgeCallRecord => ({
    model: request.model,
    templateVersion: request.templateVersion,
    attempts: state.attempts,
    latencyMs: now() - started,
    usage: state.usage,
    costUsd: price ? costOf(price, state.usage) : null,
    ...(state.repaired ? { repaired: true as const } : {}),
    ...(state.modelVersion ? { modelVersion: state.modelVersion } : {}),
    systemPromptSha256,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(raw === undefined ? {} : { raw }),
  });
  const failed = (kind: JudgeErrorKind, message: string, raw?: unknown): JudgeOutcome<Verdict> => ({
    ok: false,
    error: { kind, message },
    call: record(raw),
  });
  return { state, record, failed };
}
