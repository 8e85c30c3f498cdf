import { describe, expect, it } from "vitest";
import { cleanName, nameProblem } from "../../lib/config/clean-name";
import { only } from "./issues-of";

// The one normal form of names (reviewer names, suite names from a browser or
// a file path) and the names a suite gives (evals, criteria, categories).

describe("cleanName", () => {
  it("cuts by code points and never leaves half a surrogate pair", () => {
    expect(cleanName(`${"x".repeat(79)}😀`, 80)).toBe(`${"x".repeat(79)}😀`);
    expect(cleanName(`${"x".repeat(80)}😀`, 80)).toBe("x".repeat(80));
    expect(cleanName("a\uD800b")).toBe("ab");
  });

  it("takes out controls and bidirectional controls; white space becomes one space", () => {
    expect(cleanName(" a\u202Eb\u200E\u061C\u2066c\u2069 \t\n d\u0085\u009B ")).toBe("abc d");
  });
});

describe("names in a suite", () => {
  it("a right-to-left override in an eval name is a located error naming the character", () => {
    expect(
      only('evals:\n  - name: "release\u202Etxt.exe"\n    response: hi\n    rubric: x\n'),
    ).toMatchObject({
      line: 2,
      column: 11,
      message: "a name may not contain a bidirectional control (U+202E at character 8)",
    });
  });

  it("a control character in a criterion name likewise", () => {
    expect(nameProblem("ok\u0007")).toBe(
      "a name may not contain a control character (U+0007 at character 3)",
    );
    expect(
      only(
        'evals:\n  - name: a\n    response: hi\n    rubric: { criteria: [{ name: "c\\u001b[2J", description: d }] }\n',
      ),
    ).toMatchObject({
      line: 4,
      message: expect.stringMatching(
        /^a name may not contain a control character \(U\+001B at character 2\)$/,
      ),
    });
  });
});
