import { describe, expect, it } from "vitest";
import type { SelfGradingWarning } from "../../../lib/engine/results/report";
import {
  addSelfGrading,
  selfGradingLines,
  SELF_GRADING_NAMES,
} from "../../../lib/engine/results/self-grading";

// The same-family warning of a big run names its first results and counts the rest: one line of
// 300 names buried the run's summary (and a million-result run held every name).

const result = (i: number) => ({
  name: `agent eval [item=i${i}]`,
  judgeCalls: 1,
  candidate: { source: "agent", agent: { model: "claude-haiku-4-5" } },
  judges: [{ model: "claude-sonnet-4-6" }],
});

describe("same-family warning", () => {
  it("names the first 20 results of 300 and counts the rest", () => {
    const byPair = new Map<string, SelfGradingWarning>();
    for (let i = 1; i <= 300; i++)
      addSelfGrading(byPair, result(i) as unknown as Parameters<typeof addSelfGrading>[1]);
    const [warning] = [...byPair.values()];
    expect(warning!.results).toHaveLength(SELF_GRADING_NAMES);
    expect(warning!.count).toBe(300);
    const [line] = selfGradingLines([warning!]);
    expect(line).toMatch(
      /^warning: judge claude-sonnet-4-6 grades the run of agent claude-haiku-4-5/,
    );
    expect(line).toMatch(
      /\(300 evals: agent eval \[item=i1\], .*, agent eval \[item=i20\] and 280 more\)$/,
    );
  });

  it("reads a warning of a report written before the count: every name it has", () => {
    const old = {
      judge: "j",
      agent: "a",
      family: "Claude",
      results: ["x", "y"],
      message: "judge j grades the run of agent a",
    };
    expect(selfGradingLines([old])).toEqual([
      "warning: judge j grades the run of agent a (2 evals: x, y)",
    ]);
  });
});
