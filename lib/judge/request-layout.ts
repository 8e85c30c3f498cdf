import { createHash, type Hash } from "node:crypto";
import type Anthropic from "@anthropic-ai/sdk";
import { estimateTokens } from "../engine/cost/cost";
import type { CacheTtl, JudgeRequest, VerdictKind } from "../engine/ports/judge-port";
import { DEFAULT_CACHE_MINIMUM_TOKENS, cacheMinimumOf } from "./cache-minimums";

/**
 * The temperature a Messages API judge samples at: none is sent (this API
 * version refuses the field, see anthropic-judge.ts), so the API's default,
 * 1.0. Recorded in JudgeMetadata's temperature.
 */
export const MESSAGES_API_TEMPERATURE = 1;

// Where the cache breakpoints go in a judge request (DESIGN.md, the judge
// protocol): after the system prompt (instructions and the whole rubric,
// shared by every candidate) and after the candidate (shared by every
// criterion that grades it); the task turn comes last, uncached. A breakpoint
// whose prefix is shorter than the model's minimum would cache nothing, so it
// is left out; lengths are estimated at 4 characters a token, as `--explain` does.

/** Tokens the verdict tool adds to the prefix: tools come before the system prompt. */
const TOOL_TOKENS = 300;
/** A prefix is expected to be written only when its estimate clears the minimum by this much: estimates are rough. */
const WRITE_MARGIN = 1.2;

export interface RequestLayout {
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
  /** Estimated tokens of the longest prefix behind a breakpoint that should be written or read; 0 when none. */
  expectedCachedTokens: number;
}

/** Which breakpoints a request gets, by the estimated length of each prefix against the model's minimum. */
function breakpointsOf(request: JudgeRequest<VerdictKind>): {
  system: boolean;
  candidate: boolean;
  expectedCachedTokens: number;
} {
  const known = cacheMinimumOf(request.model);
  const minimum = known ?? DEFAULT_CACHE_MINIMUM_TOKENS;
  const systemTokens = TOOL_TOKENS + estimateTokens(request.stablePrompt);
  const withCandidate = systemTokens + estimateTokens(request.candidatePrompt);
  const system = systemTokens >= minimum;
  // A candidate no other call sends is not worth a write (1.25×) that nothing reads.
  const candidate = request.candidateShared !== false && withCandidate >= minimum;
  const longest = candidate ? withCandidate : system ? systemTokens : 0;
  // Only for a model whose minimum we know, and with a margin: this drives a warning, not the layout.
  const expectedCachedTokens =
    known !== undefined && longest >= minimum * WRITE_MARGIN ? longest : 0;
  return { system, candidate, expectedCachedTokens };
}

const EPHEMERAL = { type: "ephemeral" as const };
const EPHEMERAL_1H = { type: "ephemeral" as const, ttl: "1h" as const };

export function layoutRequest(
  request: JudgeRequest<VerdictKind>,
  ttl: CacheTtl = "5m",
): RequestLayout {
  const breakpoints = breakpointsOf(request);
  // A longer TTL must come before a shorter one: the rubric's may be 1 h, the candidate's is 5 min,
  // since the calls that share a candidate follow its first one at once (the scheduler warms it first).
  const systemCache = breakpoints.system
    ? { cache_control: ttl === "1h" ? { ...EPHEMERAL_1H } : { ...EPHEMERAL } }
    : {};
  const candidateCache = breakpoints.candidate ? { cache_control: { ...EPHEMERAL } } : {};
  return {
    system: [{ type: "text", text: request.stablePrompt, ...systemCache }],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: request.candidatePrompt, ...candidateCache },
          { type: "text", text: request.taskPrompt },
        ],
      },
    ],
    expectedCachedTokens: breakpoints.expectedCachedTokens,
  };
}

/** The warning for a request whose prefix should have been cached but was neither written nor read. */
export function cacheMissNotice(input: {
  model: string;
  expectedCachedTokens: number;
  usage: { cacheRead: number; cacheWrite: number };
}): string | undefined {
  if (input.expectedCachedTokens === 0 || input.usage.cacheRead > 0 || input.usage.cacheWrite > 0)
    return undefined;
  return `prompt cache: ${input.model} neither wrote nor read a prefix of about ${input.expectedCachedTokens} tokens (cache_creation_input_tokens = 0), so judge calls are billed in full; the model's minimum cacheable length may be higher than the table in lib/judge/cache-minimums.ts says`;
}

/**
 * The hash of a rubric prefix (model, verdict kind, system text) and its key,
 * once per rubric: hashing a long rubric again for every call of a run would
 * cost more than the rest of the key.
 */
interface PrefixHash {
  hash: Hash;
  key: string;
}
const rubricHashes = new Map<string, Map<string, PrefixHash>>();
const MAX_RUBRIC_HASHES = 256;

function rubricHash(request: JudgeRequest<VerdictKind>): PrefixHash {
  let byModel = rubricHashes.get(request.stablePrompt);
  if (byModel === undefined) {
    if (rubricHashes.size >= MAX_RUBRIC_HASHES) rubricHashes.clear();
    rubricHashes.set(request.stablePrompt, (byModel = new Map()));
  }
  const modelKey = `${request.model}\u0000${request.verdict}`;
  let known = byModel.get(modelKey);
  if (known === undefined) {
    const hash = createHash("sha256")
      .update(`${modelKey}\u0000`)
      .update(`${request.stablePrompt.length}:${request.stablePrompt}`);
    known = { hash, key: hash.copy().digest("hex") };
    byModel.set(modelKey, known);
  }
  return known;
}

/**
 * Keys of the prefixes `layoutRequest` puts a breakpoint after (the rubric,
 * then rubric + candidate), for the scheduler's warm-first rule. The same
 * model and text give the same key; no text is kept but the rubric's, as the
 * key of its hash.
 */
export function cachePrefixes(request: JudgeRequest<VerdictKind>): string[] {
  const breakpoints = breakpointsOf(request);
  if (!breakpoints.system && !breakpoints.candidate) return [];
  const rubric = rubricHash(request);
  const keys = breakpoints.system ? [rubric.key] : [];
  if (breakpoints.candidate) {
    const candidate = request.candidatePrompt;
    keys.push(rubric.hash.copy().update(`${candidate.length}:${candidate}`).digest("hex"));
  }
  return keys;
}
