import type { TokenUsage } from "../ports/judge-port";
import type { TokenUsageWire } from "./review-types";

// The Go package's TokenUsage, one definition for the writer (`review`) and the
// reader (`report FILE`): `input_tokens` is every input/prompt token of the
// call, cache reads and writes included (as the API's prompt size and the Go
// comment "the number of input/prompt tokens" have it); `cache_read_tokens`
// and `cache_write_tokens` say how many of those came from or went to the
// cache; `total_tokens` is input + output. The engine's TokenUsage keeps the
// uncached input apart, so the reader takes the cached part back out of it.

export function tokenUsageToWire(usage: TokenUsage): TokenUsageWire {
  const inputTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    input_tokens: inputTokens,
    output_tokens: usage.output,
    total_tokens: inputTokens + usage.output,
    ...(usage.cacheRead > 0 ? { cache_read_tokens: usage.cacheRead } : {}),
    ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
  };
}

/** The engine's usage of one wire TokenUsage; a file whose cache counts exceed its input keeps no negative input. */
export function tokenUsageFromWire(wire: TokenUsageWire | undefined): TokenUsage {
  if (!wire) return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const cacheRead = wire.cache_read_tokens ?? 0;
  const cacheWrite = wire.cache_write_tokens ?? 0;
  return {
    input: Math.max(0, wire.input_tokens - cacheRead - cacheWrite),
    output: wire.output_tokens,
    cacheRead,
    cacheWrite,
  };
}
