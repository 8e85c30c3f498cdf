import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fastParseYaml, type FastNode } from "../../lib/config/yaml-fast-path";
import { parseWithYaml, parseYaml, type DataPath } from "../../lib/config/yaml-locator";
import { loadSuite } from "../../lib/config/load-suite";
import { LIMITS } from "../../lib/config/limits";
import { suiteText } from "../../bench/cli-process";
import { fuzzCase, seedSuites } from "./fuzz/run-fuzz";

// The fast path (js-yaml's event parser) may answer only where it gives what
// the `yaml` package gives: the same data, the same line and column for every
// path and key, and nothing for a file the `yaml` package would reject.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every path to a value in `data`, and for each map the paths of a key it lacks. */
function pathsOf(data: unknown): { paths: DataPath[]; keys: [DataPath, string][] } {
  const paths: DataPath[] = [];
  const keys: [DataPath, string][] = [];
  const pending: [unknown, DataPath][] = [[data, []]];
  while (pending.length > 0 && paths.length < 20_000) {
    const [value, path] = pending.pop()!;
    paths.push(path, [...path, "not-there"], [...path, 99_999]);
    if (Array.isArray(value)) value.forEach((item, i) => pending.push([item, [...path, i]]));
    else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        keys.push([path, key]);
        pending.push([inner, [...path, key]]);
      }
      keys.push([path, "not-there"]);
    }
  }
  return { paths, keys };
}

/** "fast" when the fast path answered (and agreed), "fallback" when it declined. */
function compare(text: string): "fast" | "fallback" {
  // parseYaml refuses a file past the size limit before either parser sees it.
  if (text.length > LIMITS.suiteChars) return "fallback";
  const fast = fastParseYaml(text);
  if (!fast) return "fallback";
  const slow = parseWithYaml(text, "suite.yaml");
  expect(
    slow.ok,
    `js-yaml read a file the yaml package rejects:\n${text.slice(0, 400)}\n${JSON.stringify(slow.ok ? [] : slow.issues.slice(0, 2))}`,
  ).toBe(true);
  if (!slow.ok) return "fast";
  expect(fast.data).toEqual(slow.data);
  const viaFast = parseYaml(text, "suite.yaml");
  if (!viaFast.ok) throw new Error("parseYaml failed where the fast path answered");
  const { paths, keys } = pathsOf(slow.data);
  for (const path of paths)
    expect(viaFast.locator.locate(path), JSON.stringify(path)).toEqual(slow.locator.locate(path));
  for (const [path, key] of keys)
    expect(viaFast.locator.locateKey(path, key), `${JSON.stringify(path)} key ${key}`).toEqual(
      slow.locator.locateKey(path, key),
    );
  return "fast";
}

describe("the fast YAML path", () => {
  it("reads every example and guide suite as the yaml package does, positions included", () => {
    const files = ["examples", "test/fixtures/guide"].flatMap((dir) =>
      readdirSync(path.join(ROOT, dir))
        .filter((name) => name.endsWith(".yaml"))
        .map((name) => path.join(ROOT, dir, name)),
    );
    const outcomes = files.map((file) => compare(readFileSync(file, "utf8")));
    expect(outcomes.length).toBeGreaterThan(15);
    // The README's suites are what people copy: they must take the fast path.
    expect(outcomes.filter((o) => o === "fast").length).toBe(outcomes.length);
  });

  it("gives the eval positions of a 600-criterion suite without building the yaml document", () => {
    const text = suiteText(100);
    expect(compare(text)).toBe("fast");
    const evals = (fastParseYaml(text)!.root as Extract<FastNode, { kind: "map" }>).keys.get(
      "evals",
    )!.value as Extract<FastNode, { kind: "seq" }>;
    // Known starts: locate() answers these from the fast tree, not from the lazily built document.
    expect(evals.items).toHaveLength(100);
    expect(evals.items.every((item) => item.start !== undefined)).toBe(true);
    const loaded = loadSuite({ text, file: "suite.yaml" });
    const line = text.split("\n").indexOf("  - name: eval 100") + 1;
    expect(line).toBeGreaterThan(1000);
    expect(loaded.ok && loaded.value.evals[99]!.location).toEqual({
      file: "suite.yaml",
      line,
      column: 5,
    });
  });

  it(
    "agrees with the yaml package on thousands of mutated suites: whatever it accepts, the yaml package accepts the same way",
    { timeout: 120_000 },
    () => {
      const seeds = seedSuites(ROOT);
      const counts = { fast: 0, fallback: 0 };
      for (let n = 0; n < Number(process.env.FAST_CASES ?? 1500); n++)
        counts[
          compare(
            fuzzCase({
              seeds,
              seed: Number(process.env.FAST_SEED ?? 29),
              n,
              full: process.env.FAST_FULL === "1",
            }),
          )
        ]++;
      // Both sides are exercised: mutations the fast path takes, and ones it leaves to the yaml package.
      expect(counts.fast).toBeGreaterThan(300);
      expect(counts.fallback).toBeGreaterThan(300);
    },
  );

  it.each([
    ["an anchor and an alias", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 12\n"],
    ["a custom tag", "a: !custom x\n"],
    ["a null key", "~: 1\n"],
    ["a key the core schema reads as a number of another spelling", "1.0: a\n"],
    ["a collection as a key", "? [a, b]\n: c\n"],
    ["two documents", "a: 1\n---\nb: 2\n"],
    ["a %YAML directive", "%YAML 1.1\n---\na: yes\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a syntax error", "a: [1, 2\n"],
    ["nesting past the limit", `a: ${"[".repeat(70)}${"]".repeat(70)}\n`],
    ["a float past the double range", "a: 1e309\n"],
    ["an empty file", ""],
  ])("leaves %s to the yaml package", (_name, text) => {
    expect(fastParseYaml(text)).toBeNull();
  });

  it("answers a block scalar's and an empty value's position from the yaml document, exactly", () => {
    const text =
      "evals:\n  - name: a\n    prompt: |\n      line one\n    response:\n    note: 'q'\n";
    expect(compare(text)).toBe("fast");
    const parsed = parseYaml(text, "suite.yaml");
    if (!parsed.ok) throw new Error("did not parse");
    expect(parsed.locator.locate(["evals", 0, "prompt"])).toEqual({ line: 3, column: 13 });
    expect(parsed.locator.locate(["evals", 0, "note"])).toEqual({ line: 6, column: 11 });
  });
});
