import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";

// when.regex is RE2 syntax: what RE2 cannot run in linear time
// (backreferences, lookaround) is a load-time error at the pattern itself.

const withRegex = (pattern: string) => `evals:
  - name: e
    response: "The answer."
    rubric:
      criteria:
        - name: a
          description: b
          when: { regex: '${pattern}' }
`;

function issuesOf(pattern: string) {
  const loaded = loadSuite({ text: withRegex(pattern), file: "suite.yaml" });
  return loaded.ok ? [] : loaded.issues;
}

describe("when.regex at load time", () => {
  it.each([
    ["a backreference", String.raw`(a)\1`],
    ["a lookahead", "foo(?=bar)"],
    ["a negative lookahead", "foo(?!bar)"],
    ["a lookbehind", "(?<=foo)bar"],
    ["a negative lookbehind", "(?<!foo)bar"],
  ])("rejects %s at the pattern's line and column, saying the syntax is RE2", (_kind, pattern) => {
    const issues = issuesOf(pattern);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      file: "suite.yaml",
      line: 8,
      column: 26,
      path: ["evals", 0, "rubric", "criteria", 0, "when", "regex"],
    });
    expect(issues[0]!.message).toMatch(
      /^invalid regex: .*when\.regex is RE2 syntax: backreferences/,
    );
  });

  it("accepts what RE2 runs: classes, anchors, alternation, flags, Unicode classes, and a catastrophic-looking pattern", () => {
    for (const pattern of [
      String.raw`\d{4}-\d{2}-\d{2}`,
      "^(yes|no)$",
      "(?i)refund",
      String.raw`\p{L}+`,
      "(a+)+$",
    ]) {
      expect(issuesOf(pattern), pattern).toEqual([]);
    }
  });

  it("still rejects a pattern that is not a regex at all", () => {
    expect(issuesOf("error(")[0]!.message).toMatch(/^invalid regex: missing closing \)/);
  });
});
