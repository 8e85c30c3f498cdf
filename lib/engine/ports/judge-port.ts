import type { ScoreVerdict, ScoreVerdictKind, Verdict, VerdictKind } from "./verdict";

// The judge port: the one way the engine reaches a judge model. Adapters live
// in lib/judge (the Anthropic SDK) and in tests (fakes).

export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written to the 1-hour cache (billed 2× input, not 1.25×); absent when none were. */
  cacheWrite1h?: number;
}

/** Two usages added up, the 1-hour cache writes included (and left out when there are none). */
export function addTokenUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const hour = (a.cacheWrite1h ?? 0) + (b.cacheWrite1h ?? 0);
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    ...(hour > 0 ? { cacheWrite1h: hour } : {}),
  };
}

export const ZERO_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** The tokens of several calls together (a result's judge calls). */
export function sumUsage(calls: readonly { usage: TokenUsage }[]): TokenUsage {
  return calls.reduce((sum, c) => addTokenUsage(sum, c.usage), ZERO_USAGE);
}

/**
 * The judge calls a result's calls were billed as: each call made (not reused from the judge
 * cache), and its repair request where there was one. What "judge calls" counts everywhere
 * (a result, the summary, the run page), so that it matches what the cost is for.
 */
export function billedCalls(
  calls: readonly Pick<JudgeCallRecord, "reused" | "repaired">[],
): number {
  let n = 0;
  for (const c of calls) if (!c.reused) n += c.repaired ? 2 : 1;
  return n;
}

/**
 * Why a call or an eval was not graded: the --max-cost budget, a cancel
 * request or an interruption. Defined here, at the floor, because the live
 * port's outcome carries it; results/skip-kind.ts has its labels.
 */
export type SkipKind = "budget" | "cancelled" | "interrupted";

/** What a scheduled call (grade/call-scheduler.ts) gave: its value, or why it was not started. */
export type Scheduled<T> = { skipped: false; value: T } | { skipped: true; reason: SkipKind };

export type { VerdictKind, ScoreVerdictKind } from "./verdict";

/** A request for a verdict of kind K; bare `JudgeRequest` is a score request (a criterion, a tree node, a free-form rubric). */
export interface JudgeRequest<K extends VerdictKind = ScoreVerdictKind> {
  model: string;
  maxTokens: number;
  templateVersion: string;
  /**
   * The prefix shared by every candidate: instructions and the whole rubric
   * (every criterion, node or category, with its anchors). Sent first, as the
   * system prompt, behind a cache breakpoint.
   */
  stablePrompt: string;
  /** The candidate, shared by every criterion that grades it. Sent next, behind a second breakpoint. */
  candidatePrompt: string;
  /** The short last turn: which one criterion (node, category) to grade now. Never cached. */
  taskPrompt: string;
  /**
   * False when no other call sends this candidate block (a free-form rubric, a
   * holistic review or a pair, with one judge of the model): a cache write
   * that nothing reads costs 1.25× for nothing, so the adapter puts no
   * breakpoint after it. Layout only: not part of the judge cache's key.
   */
  candidateShared?: boolean;
  verdict: K;
  /**
   * A holistic review's category ids, or a pairwise comparison's criterion
   * names: a reply must give an entry for each (`replySchemaFor`), or it is
   * malformed and repaired once like any other.
   */
  categories?: readonly string[];
  /**
   * Which sample of an identical request this is (a juror's number, from 1).
   * Not sent to the model; it keeps a cache from handing every juror one verdict.
   */
  sample: number;
}

/** Everything recorded about one judge call, success or not. */
export interface JudgeCallRecord {
  model: string;
  /** The provider that served the model (anthropic, openai, or one declared under providers:), when resolved. */
  provider?: string;
  templateVersion: string;
  attempts: number;
  latencyMs: number;
  usage: TokenUsage;
  /** null when the model has no entry in the pricing table. */
  costUsd: number | null;
  /**
   * Set when the reply did not parse and a second request asked the judge to repair it: that
   * request is billed like any other, so it counts as a judge call of its own (`billedCalls`).
   */
  repaired?: true;
  /** The verdict object exactly as the judge sent it (after a repair, the repaired one). */
  raw?: unknown;
  /**
   * Set when the verdict came from the judge cache instead of a request: no
   * tokens were spent now, and savedUsd is what the original call cost.
   */
  reused?: {
    savedUsd: number | null;
    /** The stored run that paid for the verdict, when the cache knows it. */
    fromRunId?: string;
  };
  /** Set when the call went through the Message Batches API (billed at half price): the batch that answered it. */
  batched?: { batchId: string };
  /** The model the API says answered (its reply's `model`), for JudgeMetadata's model_version. */
  modelVersion?: string;
  /** The SHA-256 (hex) of the system prompt sent, for JudgeMetadata's system_prompt. */
  systemPromptSha256?: string;
  /** The sampling temperature the model used, where known (the API's default when none is sent). */
  temperature?: number;
}

export type JudgeErrorKind =
  | "malformed"
  | "timeout"
  | "rate_limited"
  | "overloaded"
  | "server"
  | "auth"
  | "request"
  | "connection"
  | "expired";

export type JudgeOutcome<V = ScoreVerdict> = (
  | { ok: true; verdict: V; call: JudgeCallRecord }
  | { ok: false; error: { kind: JudgeErrorKind; message: string }; call: JudgeCallRecord }
) & {
  /** Something the run should warn about once (a prefix the prompt cache should have written and did not). Not recorded with the call. */
  notice?: string;
};

/**
 * A concurrency slot that the engine's scheduler holds for a call. The judge
 * gives it back while it waits out a retry-after or a backoff, so that a
 * waiting call does not block calls that could run, and takes it again before
 * the next attempt.
 */
export interface JudgeSlot {
  release(): void;
  acquire(): Promise<void>;
}

/** How long a written prompt-cache prefix lives: the API's 5 minutes (refreshed on each read), or 1 hour at a higher write price. */
export type CacheTtl = "5m" | "1h";

export interface JudgeCallContext {
  slot: JudgeSlot;
  signal?: AbortSignal;
  /** The TTL of the rubric's shared prefix, chosen by the engine from the run's expected length. */
  cacheTtl?: CacheTtl;
}

export interface JudgePort {
  /** The verdict matches the request's kind: adapters validate it with replySchemaFor(request). */
  grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>>;
  /**
   * The prompt-cache prefixes the request would write or read, as opaque keys,
   * only those long enough to be cached. The scheduler sends the first call of
   * a new prefix and holds the calls that share it until it is answered (a
   * prefix is readable only once a response using it has begun). Left out by
   * judges without a prompt cache.
   */
  cachePrefixes?(request: JudgeRequest<VerdictKind>): readonly string[];
}

/**
 * A judge port whose score requests come back typed as score verdicts, for
 * callers that hold a concrete adapter (tests, benches). Same object, narrower
 * view: adapters return this.
 */
export interface TypedJudgePort extends JudgePort {
  grade(request: JudgeRequest, context: JudgeCallContext): Promise<JudgeOutcome>;
  grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>>;
}
