import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scoreStatValue } from "../../../components/results/score-stat";

// New-user walk, item 3: stat cards broke inside words ("judge_err/or / 0.70",
// "dashboar/d") and showed the raw status name.

describe("the result page's Score card", () => {
  it("a judge error reads 'judge error', not the raw status against a threshold", () => {
    const shown = scoreStatValue({
      status: "judge_error",
      display: "judge_error",
      thresholdDisplay: "0.70",
    });
    expect(shown).toContain("judge error");
    expect(shown).not.toContain("judge_error");
    expect(shown).not.toContain("0.70");
  });

  it("a score and its threshold stay on one line (no breakable space around the slash)", () => {
    expect(scoreStatValue({ status: "passed", display: "0.70", thresholdDisplay: "0.70" })).toBe(
      "0.70\u00a0/\u00a00.70",
    );
  });
});

describe("the stat cards' CSS", () => {
  const css = readFileSync("components/results/results.module.css", "utf8");
  const valueRules = [...css.matchAll(/\.stat \.value\s*\{([^}]*)\}/g)].map((m) => m[1]).join(";");

  it("never breaks inside a word", () => {
    expect(valueRules).not.toMatch(/overflow-wrap:\s*anywhere/);
    expect(valueRules).toMatch(/word-break:\s*keep-all/);
  });
});
