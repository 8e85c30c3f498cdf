import { createHash } from "node:crypto";
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

export function layoutRequest(
  request: JudgeRequest<VerdictKind>,
  ttl: CacheTtl = "5m",
): RequestLayout {
  const known = cacheMinimumOf(request.model);
  const minimum = known ?? DEFAULT_CACHE_MINIMUM_TOKENS;
  const systemTokens = TOOL_TOKENS + estimateTokens(request.stablePrompt);
  const withCandidate = systemTokens + estimateTokens(request.candidatePrompt);
  // A longer TTL must come before a shorter one: the rubric's may be 1 h, the candidate's is 5 min,
  // since the calls that share a candidate follow its first one at once (the scheduler warms it first).
  const systemCache =
    systemTokens >= minimum
      ? {
          cache_control:
            ttl === "1h"
              ? { type: "ephemeral" as const, ttl: "1h" as const }
              : { type: "ephemeral" as const },
        }
      : {};
  // A candidate no other call sends is not worth a write (1.25×) that nothing reads.
  const cacheCandidate = request.candidateShared !== false && withCandidate >= minimum;
  const candidateCache = cacheCandidate ? { cache_control: { type: "ephemeral" as const } } : {};
  const longest = cacheCandidate ? withCandidate : systemTokens >= minimum ? systemTokens : 0;
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
    // Only for a model whose minimum we know, and with a margin: this drives a warning, not the layout.
    expectedCachedTokens: known !== undefined && longest >= minimum * WRITE_MARGIN ? longest : 0,
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
 * Keys of the prefixes `layoutRequest` puts a breakpoint after (the rubric,
 * then rubric + candidate), for the scheduler's warm-first rule. The same
 * model and text give the same key; no text is kept.
 */
export function cachePrefixes(request: JudgeRequest<VerdictKind>): string[] {
  const { system, messages } = layoutRequest(request);
  const keys: string[] = [];
  const hash = createHash("sha256").update(`${request.model}\u0000${request.verdict}\u0000`);
  const blocks = [...system, ...(messages[0]!.content as Anthropic.TextBlockParam[])];
  for (const block of blocks) {
    hash.update(`${block.text.length}:${block.text}`);
    if (block.cache_control) keys.push(hash.copy().digest("hex"));
  }
  return keys;
}
