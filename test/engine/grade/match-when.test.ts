import { describe, expect, it } from "vitest";
import { byCriterion, createFakeJudge } from "../../support/fake-judge";
import { criterion, runOne } from "../../support/run-yaml";

// when.regex runs on RE2: a pattern that makes a backtracking engine take
// exponential time grades in linear time, so one suite cannot stall a run
// (or, in the dashboard, every other request of the server).

const suite = (response: string) => `
evals:
  - name: guarded
    prompt: "Say a."
    response: "${response}"
    rubric:
      criteria:
        - name: always
          description: "Answers."
        - name: ends in a run of a
          description: "Ends with the letter a repeated."
          when: { regex: "(a+)+$" }
`;

describe("when.regex", () => {
  it("grades a catastrophic pattern against a hostile candidate in linear time", async () => {
    // JavaScript's RegExp takes about 3.5 s here on a quiet machine, and doubles with each extra "a".
    const judge = createFakeJudge(byCriterion({ always: { score: 1 } }));
    const started = performance.now();
    const result = await runOne(suite(`${"a".repeat(26)}b`), { judge });
    expect(performance.now() - started).toBeLessThan(500);
    expect(criterion(result, "ends in a run of a")).toMatchObject({
      status: "skipped",
      skippedReason: "when: the candidate does not match /(a+)+$/",
    });
    expect(result.status).toBe("passed");
  });

  it("still grades the criterion when the pattern matches", async () => {
    const judge = createFakeJudge(
      byCriterion({ always: { score: 1 }, "ends in a run of a": { score: 0.9 } }),
    );
    const result = await runOne(suite("a".repeat(10_000)), { judge });
    expect(criterion(result, "ends in a run of a").status).toBe("graded");
    expect(judge.requests).toHaveLength(2);
  });
});
