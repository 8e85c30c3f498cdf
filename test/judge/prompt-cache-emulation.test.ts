import { describe, expect, it } from "vitest";
import { createPromptCache } from "../support/prompt-cache";

// The stand-in's prompt-cache emulation on its own: what it writes and reads,
// its minimum length, its TTL, and when an entry becomes readable.

const text = (chars: number, tag: string) => `${tag}${"x".repeat(chars - tag.length)}`;
function body(system: string, candidate: string, ttl?: "1h") {
  return {
    model: "claude-sonnet-4-5",
    system: [
      {
        type: "text",
        text: system,
        cache_control: ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" },
      },
    ],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: candidate, cache_control: { type: "ephemeral" } },
          { type: "text", text: "grade it" },
        ],
      },
    ],
  };
}

describe("the prompt-cache emulation", () => {
  it("writes on a miss, and is read only once the writing response has begun", () => {
    const cache = createPromptCache({ minTokens: 1024 });
    const first = cache.admit(body(text(8000, "rubric"), text(4000, "one")));
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(2900);
    // Before the first response begins: a miss, and a second write.
    const early = cache.admit(body(text(8000, "rubric"), text(4000, "one")));
    expect(early.usage.cache_read_input_tokens).toBe(0);
    first.begin();
    const after = cache.admit(body(text(8000, "rubric"), text(4000, "one")));
    expect(after.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(after.usage.cache_creation_input_tokens).toBe(0);
    // Another candidate: the rubric prefix is read, the candidate written.
    const other = cache.admit(body(text(8000, "rubric"), text(4000, "two")));
    expect(other.usage.cache_read_input_tokens).toBeGreaterThan(1900);
    expect(other.usage.cache_read_input_tokens + other.usage.cache_creation_input_tokens).toBe(
      first.usage.cache_creation_input_tokens,
    );
  });

  it("caches nothing below the minimum, and only the prefixes that reach it", () => {
    const cache = createPromptCache({ minTokens: 1024 });
    const short = cache.admit(body(text(400, "rubric"), text(400, "one")));
    expect(short.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    // A short rubric with a long candidate: only the rubric + candidate prefix is written.
    const long = cache.admit(body(text(400, "rubric"), text(6000, "one")));
    expect(long.usage.cache_creation_input_tokens).toBe(
      long.usage.cache_creation.ephemeral_5m_input_tokens,
    );
    expect(long.usage.cache_creation_input_tokens).toBeGreaterThan(1500);
  });

  it("forgets an entry after its TTL (5 minutes, refreshed by reads; 1 hour when asked)", () => {
    let now = 0;
    const cache = createPromptCache({ now: () => now });
    cache.admit(body(text(8000, "rubric"), text(100, "a"))).begin();
    now = 4 * 60_000;
    expect(
      cache.admit(body(text(8000, "rubric"), text(100, "b"))).usage.cache_read_input_tokens,
    ).toBeGreaterThan(0);
    now = 8 * 60_000; // 4 minutes after the read that refreshed it
    expect(
      cache.admit(body(text(8000, "rubric"), text(100, "c"))).usage.cache_read_input_tokens,
    ).toBeGreaterThan(0);
    now = 20 * 60_000;
    const expired = cache.admit(body(text(8000, "rubric"), text(100, "d")));
    expect(expired.usage.cache_read_input_tokens).toBe(0);

    const hour = createPromptCache({ now: () => now });
    const written = hour.admit(body(text(8000, "rubric"), text(100, "a"), "1h"));
    written.begin();
    expect(written.usage.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThan(1900);
    now += 50 * 60_000;
    expect(
      hour.admit(body(text(8000, "rubric"), text(100, "b"), "1h")).usage.cache_read_input_tokens,
    ).toBeGreaterThan(0);
  });
});
