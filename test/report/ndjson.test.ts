import { describe, expect, it } from "vitest";
import { ndjsonReporter } from "../../lib/report/ndjson";
import { stableJson, stableObject } from "../../lib/report/stable-json";
import { buildSampleReport, sampleResults } from "../support/sample-report";

function events(text: string): Record<string, unknown>[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("ndjson reporter", () => {
  it("writes a start event, one result event per eval result, and a summary event", () => {
    const report = buildSampleReport();
    const lines = events(ndjsonReporter.render(report, { color: false }));
    expect(lines).toHaveLength(report.results.length + 2);
    expect(lines[0]).toMatchObject({
      type: "start",
      suite: { file: "examples/rubric-eval.yml" },
      total: 8,
    });
    const results = lines.slice(1, -1);
    expect(results.map((l) => l.type)).toEqual(Array(8).fill("result"));
    expect(results.map((l) => l.id)).toEqual(report.results.map((r) => r.id));
    expect(results.map((l) => l.status)).toEqual(report.results.map((r) => r.status));
    expect(lines.at(-1)).toMatchObject({
      type: "summary",
      passed: 4,
      failed: 1,
      deferred: 1,
      judgeErrors: 1,
      skipped: 1,
      costUsd: 0.0278,
    });
  });

  it("keeps one event per line when report text has line breaks of any kind", () => {
    const results = sampleResults().map((r) => ({
      ...r,
      reason: "first\nsecond\r\nthird\u2028fourth\u2029fifth",
    }));
    const text = ndjsonReporter.render(buildSampleReport({ results }), { color: false });
    expect(text).not.toMatch(/[\u2028\u2029]/);
    const lines = events(text);
    expect(lines).toHaveLength(10);
    expect(lines[1]?.reason).toBe("first\nsecond\r\nthird\u2028fourth\u2029fifth");
  });
});

describe("stableJson", () => {
  it("writes what JSON.stringify(stableObject(...)) writes, without the copies", () => {
    const report = buildSampleReport();
    for (const value of [
      { type: "result", index: 1, ...report.results[0]! },
      { type: "summary", ...report.summary, odd: undefined, list: [1 / 3, undefined, NaN] },
      ...report.results.map((r) => ({ type: "result", ...r })),
    ])
      expect(stableJson(value, ["type", "index", "id"])).toBe(
        JSON.stringify(stableObject(value, ["type", "index", "id"])),
      );
  });
});

describe("stableJson on any shape", () => {
  it("writes what JSON.stringify(stableObject(...)) writes for nested, unsorted, wide and odd values", () => {
    // A small deterministic generator: objects whose keys come in any order (more than the
    // insertion sort's 32 included), arrays of objects, non-ASCII and escaped keys, every kind of number.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keyPool = ["b", "a", "é", "Z", 'a"q', "score", "costUsd", "rate", "k10", "k2", "\u2028k"];
    // Integer-like keys ("2" before "10"), and some that only look so ("01", "-1", 2^32 - 1).
    keyPool.push("10", "2", "0", "01", "-1", "1.5", "4294967294", "4294967295");
    const valueOf = (depth: number): unknown => {
      const pick = next();
      if (depth > 3 || pick < 0.35)
        return [0.1 + 0.2, -0, 1e21, 1 / 3, NaN, Infinity, "text\n\u2029", true, null, undefined][
          Math.floor(next() * 10)
        ];
      if (pick < 0.55)
        return Array.from({ length: Math.floor(next() * 4) }, () => valueOf(depth + 1));
      const size = next() < 0.1 ? 40 : Math.floor(next() * 8);
      const object: Record<string, unknown> = {};
      for (let i = 0; i < size; i++)
        object[
          size > 11
            ? `k${Math.floor(next() * 1000)}`
            : keyPool[Math.floor(next() * keyPool.length)]!
        ] = valueOf(depth + 1);
      return object;
    };
    for (let i = 0; i < 100; i++) {
      const value = {
        ...(i % 3 === 0 ? { "7": valueOf(1), "12": 1 } : {}),
        id: `r${i}`,
        zeta: valueOf(0),
        type: "result",
        alpha: valueOf(0),
        nested: valueOf(1),
      };
      expect(stableJson(value, ["type", "index", "id"])).toBe(
        JSON.stringify(stableObject(value, ["type", "index", "id"])),
      );
    }
  });
});
