import type { CacheTtl } from "../ports/judge-port";
import type { TokenEstimate } from "./estimate-requests";

// What the prompt cache would bill, projected for `eval --explain` and the
// editor's plan. It follows the judge's request layout (lib/judge's
// request-layout.ts, DESIGN.md): a breakpoint after the rubric's prefix (the
// verdict tool, the instructions and the whole rubric) and one after the
// candidate when other calls share it, each only where the prefix reaches the
// model's minimum cacheable length. The scheduler sends the first call of each
// new prefix before the calls that share it (warm-first), so the first call
// writes the prefix and the calls that follow read it. The minimums are lib/judge's
// data: they come in as a function, as prices do.

/** The smallest cacheable prefix of a model in tokens; undefined when no prompt cache is modelled for it (no saving projected). */
export type CacheMinimumOf = (model: string) => number | undefined;

/** Projected input tokens of calls, split as the API bills them. */
export interface ProjectedInput {
  /** Uncached input. */
  input: number;
  /** Written with the 5-minute TTL (1.25× input price). */
  write5m: number;
  /** Written with the 1-hour TTL (2× input price). */
  write1h: number;
  /** Read from the cache (0.1× input price). */
  read: number;
}

export const NO_PROJECTED_INPUT: ProjectedInput = { input: 0, write5m: 0, write1h: 0, read: 0 };

export function addProjected(a: ProjectedInput, b: ProjectedInput): ProjectedInput {
  return {
    input: a.input + b.input,
    write5m: a.write5m + b.write5m,
    write1h: a.write1h + b.write1h,
    read: a.read + b.read,
  };
}

/**
 * A projector for one plan: it remembers which prefixes an earlier call wrote,
 * so calls must be given in the order a run sends them. The rubric's prefix is
 * written with the run's TTL, the candidate's with 5 minutes, as the layout does.
 */
export function createCacheProjector(input: {
  cacheMinimumOf: CacheMinimumOf;
  ttl: CacheTtl;
}): (model: string, tokens: TokenEstimate) => ProjectedInput {
  const written = new Set<string>();
  return (model, tokens) => {
    const minimum = input.cacheMinimumOf(model);
    const prefix = tokens.prefix;
    if (minimum === undefined || prefix === undefined)
      return { ...NO_PROJECTED_INPUT, input: tokens.inputTokens };
    const withCandidate = prefix.stableTokens + prefix.candidateTokens;
    const points: { key: string; tokens: number; ttl: CacheTtl }[] = [];
    if (prefix.stableTokens >= minimum)
      points.push({
        key: `${model}\u0000${prefix.stableKey}`,
        tokens: prefix.stableTokens,
        ttl: input.ttl,
      });
    if (prefix.candidateShared && withCandidate >= minimum)
      points.push({
        key: `${model}\u0000${prefix.candidateKey}`,
        tokens: withCandidate,
        ttl: "5m",
      });
    let hit = -1;
    for (let i = points.length - 1; i >= 0 && hit < 0; i--)
      if (written.has(points[i]!.key)) hit = i;
    const read = hit >= 0 ? points[hit]!.tokens : 0;
    let covered = read;
    const projected: ProjectedInput = { ...NO_PROJECTED_INPUT, read };
    for (const point of points.slice(hit + 1)) {
      written.add(point.key);
      if (point.ttl === "1h") projected.write1h += point.tokens - covered;
      else projected.write5m += point.tokens - covered;
      covered = point.tokens;
    }
    projected.input = tokens.inputTokens - covered;
    return projected;
  };
}
