import { createHash } from "node:crypto";

// Prompt-cache emulation for the Messages API stand-in, by prefix, as the real
// API behaves (Anthropic's prompt-caching guide):
// - the prefix is tools, then system blocks, then message content blocks, in
//   order; a block with `cache_control` ends a cacheable prefix (a breakpoint);
// - tokens are counted as characters / 4 (rounded up) of each block's JSON
//   without its cache_control, the same rough rule as `--explain`;
// - a breakpoint whose prefix is shorter than `minTokens` caches nothing;
// - an entry lives `ttl` (5 min, or 1 h with `ttl: "1h"`), refreshed on a read;
// - an entry is readable only once the response that wrote it has begun:
//   requests that arrive before that all miss, and all write;
// - usage: the longest readable prefix is `cache_read_input_tokens`, what the
//   later breakpoints add is `cache_creation_input_tokens`, the rest is
//   `input_tokens`.

export interface PromptCacheOptions {
  /** The smallest cacheable prefix in tokens (default 1,024). */
  minTokens?: number;
  now?: () => number;
}

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Split of the writes by TTL, as the API reports it. */
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

interface Entry {
  expiresAt: number;
  readable: boolean;
}

interface Breakpoint {
  key: string;
  tokens: number;
  ttlMs: number;
  ttl: "5m" | "1h";
}

const MINUTE = 60_000;

export interface PromptCache {
  /** Works out a request's usage and writes its new entries (not yet readable). */
  admit(body: Record<string, unknown>): { usage: CacheUsage; begin: () => void };
}

export function createPromptCache(options: PromptCacheOptions = {}): PromptCache {
  const minTokens = options.minTokens ?? 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    admit(body) {
      const { breakpoints, totalTokens } = prefixesOf(body);
      const at = now();
      let hit = -1;
      for (let i = breakpoints.length - 1; i >= 0; i--) {
        const entry = entries.get(breakpoints[i]!.key);
        if (entry && entry.readable && entry.expiresAt > at) {
          hit = i;
          break;
        }
      }
      const read = hit >= 0 ? breakpoints[hit]!.tokens : 0;
      for (let i = 0; i <= hit; i++) {
        const entry = entries.get(breakpoints[i]!.key);
        if (entry) entry.expiresAt = Math.max(entry.expiresAt, at + breakpoints[i]!.ttlMs);
      }
      const written: Entry[] = [];
      let covered = read;
      const byTtl = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
      for (const point of breakpoints.slice(hit + 1)) {
        if (point.tokens < minTokens) continue;
        // A request that misses while another writes the same prefix writes too (and is billed so),
        // and the entry is readable once either response has begun.
        const pending = entries.get(point.key);
        const entry: Entry =
          pending && !pending.readable && pending.expiresAt > at
            ? pending
            : { expiresAt: at + point.ttlMs, readable: false };
        entry.expiresAt = Math.max(entry.expiresAt, at + point.ttlMs);
        entries.set(point.key, entry);
        written.push(entry);
        byTtl[point.ttl === "1h" ? "ephemeral_1h_input_tokens" : "ephemeral_5m_input_tokens"] +=
          point.tokens - covered;
        covered = point.tokens;
      }
      const creation = covered - read;
      return {
        usage: {
          input_tokens: totalTokens - covered,
          cache_creation_input_tokens: creation,
          cache_read_input_tokens: read,
          cache_creation: byTtl,
        },
        begin: () => {
          for (const entry of written) entry.readable = true;
        },
      };
    },
  };
}

function prefixesOf(body: Record<string, unknown>): {
  breakpoints: Breakpoint[];
  totalTokens: number;
} {
  const blocks: unknown[] = [];
  if (Array.isArray(body.tools)) blocks.push(...(body.tools as unknown[]));
  if (typeof body.system === "string") blocks.push({ type: "text", text: body.system });
  else if (Array.isArray(body.system)) blocks.push(...(body.system as unknown[]));
  for (const message of Array.isArray(body.messages)
    ? (body.messages as Array<{ role?: unknown; content?: unknown }>)
    : []) {
    if (typeof message.content === "string")
      blocks.push({ type: "text", text: message.content, role: message.role });
    else if (Array.isArray(message.content))
      blocks.push(
        ...(message.content as unknown[]).map((b) => ({ ...(b as object), role: message.role })),
      );
  }
  const hash = createHash("sha256").update(String(body.model));
  let chars = 0;
  const breakpoints: Breakpoint[] = [];
  for (const block of blocks) {
    const { cache_control: control, ...rest } = block as { cache_control?: { ttl?: string } };
    const text = JSON.stringify(rest);
    chars += text.length;
    hash.update(text);
    if (control) {
      const ttl = control.ttl === "1h" ? "1h" : "5m";
      breakpoints.push({
        key: hash.copy().digest("hex"),
        tokens: Math.ceil(chars / 4),
        ttl,
        ttlMs: ttl === "1h" ? 60 * MINUTE : 5 * MINUTE,
      });
    }
  }
  return { breakpoints, totalTokens: Math.ceil(chars / 4) };
}
