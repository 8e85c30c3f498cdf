import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import { isStorable, unstorableAt } from "../../lib/config/storable-text";
import { storableDeep, storableText } from "../../lib/store/storable";
import { only } from "./issues-of";

// Postgres text cannot hold a NUL, and jsonb cannot hold an unpaired
// surrogate: a suite that carried one validated, and storing its run failed
// (`22P05 unsupported Unicode escape sequence`) after the judge was paid. The
// loader refuses it at the character, in every way YAML lets it in.

const suite = (response: string, extra = "") =>
  `evals:\n  - name: a${extra}\n    prompt: P\n    response: ${response}\n    rubric: "Is it good?"\n`;

describe("a suite with text Postgres cannot store is refused at load, located", () => {
  it.each([
    ['a "\\0" escape', '"before\\0after"', "a NUL character (\\0)"],
    ['a "\\x00" escape', '"before\\x00after"', "a NUL character (\\0)"],
    ['a "\\u0000" escape', '"before\\u0000after"', "a NUL character (\\0)"],
    ["a raw NUL", "before\u0000after", "a NUL character (\\0)"],
    ['a lone high surrogate "\\ud800"', '"before\\ud800after"', "an unpaired surrogate (\\ud800)"],
    ['a lone low surrogate "\\udc00"', '"\\udc00"', "an unpaired surrogate (\\udc00)"],
  ])("%s in a response: an error at the value", (_, response, what) => {
    const issue = only(suite(response));
    expect(issue).toMatchObject({ line: 4, column: 15, path: ["evals", 0, "response"] });
    expect(issue.message).toBe(
      `this value contains ${what}, which the run history (Postgres text) cannot store; remove it`,
    );
  });

  it("a NUL in a key, a prompt and a criterion, each at its place", () => {
    const text =
      'evals:\n  - name: a\n    prompt: "P\\0Q"\n    response: r\n    rubric:\n      criteria:\n        - { name: c, description: "d\\0", "x\\0": 1 }\n';
    const result = loadSuite({ text, file: "suite.yaml" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => [i.line, i.column, i.path.join(".")])).toEqual([
      [3, 13, "evals.0.prompt"],
      [7, 35, "evals.0.rubric.criteria.0.description"],
      [7, 42, "evals.0.rubric.criteria.0.x\u0000"],
    ]);
  });

  it("a raw NUL in a comment: the saved YAML is text too, refused at the character", () => {
    const issue = only(`# note\u0000\n${suite("r")}`);
    expect(issue).toMatchObject({ line: 1, column: 7, path: [] });
    expect(issue.message).toMatch(/^the suite contains a NUL character/);
  });

  it("aliases: one aliased value is reported once, and the walk is bounded", () => {
    const text = `x: &x "bad\\0"\nevals:\n${Array.from({ length: 50 }, (_, i) => `  - { name: e${i}, response: *x, rubric: r }`).join("\n")}\n`;
    const result = loadSuite({ text, file: "suite.yaml" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.length).toBeLessThanOrEqual(20);
  });

  it("emoji, CJK and right-to-left text are storable, and load", () => {
    const text = suite('"😀 漢字 שלום ﷽"');
    expect(loadSuite({ text, file: "suite.yaml" }).ok).toBe(true);
  });
});

describe("what a model sends back is made storable by the store", () => {
  it("replaces each NUL and unpaired surrogate with U+FFFD, and keeps pairs", () => {
    expect(storableText("a\u0000b\ud800c\udc00d😀")).toBe("a\ufffdb\ufffdc\ufffdd😀");
    expect(isStorable("😀")).toBe(true);
    expect(unstorableAt("ab\ud83d")).toBe(2);
  });

  it("copies only what it changes, keys included", () => {
    const clean = { a: ["x", { b: "y" }], n: 1 };
    expect(storableDeep(clean)).toBe(clean);
    const dirty = { keep: clean, bad: ["ok", "n\u0000"], ["k\u0000"]: 1 };
    const stored = storableDeep(dirty);
    expect(stored).toEqual({ keep: clean, bad: ["ok", "n\ufffd"], ["k\ufffd"]: 1 });
    expect(stored.keep).toBe(clean);
    expect(dirty.bad[1]).toBe("n\u0000");
  });
});
