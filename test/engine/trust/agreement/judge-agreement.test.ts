import { describe, expect, it } from "vitest";
import { createFakeJudge } from "../../../support/fake-judge";
import { runYaml } from "../../../support/run-yaml";
import type { JudgeRequest, VerdictKind } from "../../../../lib/engine/ports/judge-port";

// Agreement statistics as a run reports them: published rating data played
// through the engine as a panel of judges over matrix cells, and the report
// must carry the published values.

const promptIndex = (request: JudgeRequest<VerdictKind>) =>
  Number(/<user_prompt>\nitem (\d+)\n/.exec(request.candidatePrompt)?.[1]);
const prompts = (n: number) => Array.from({ length: n }, (_, i) => `"item ${i + 1}"`).join(", ");

describe("judge agreement in the report", () => {
  it("Krippendorff (2011) binary data, two judges x ten items on a boolean scale: alpha .095, exact agreement 6 of 10", async () => {
    const observer: Record<string, number[]> = {
      "judge-a": [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
      "judge-b": [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    };
    const judge = createFakeJudge((request) => ({
      score: observer[request.model]![promptIndex(request) - 1]!,
    }));
    const report = await runYaml(
      `
evals:
  - name: refusal
    response: "I can't help with that."
    rubric:
      scale: boolean
      criteria:
        - { name: refuses, description: "Refuses the request." }
    judge: { panel: [judge-a, judge-b], aggregate: majority }
    matrix: { prompts: [${prompts(10)}] }
`,
      { judge },
    );
    expect(report.agreement).toHaveLength(1);
    const row = report.agreement![0]!;
    expect(row).toMatchObject({
      eval: "refusal",
      item: "refuses",
      level: "nominal",
      judges: ["judge-a", "judge-b"],
      units: 10,
    });
    expect(row.krippendorffAlpha.value).toBeCloseTo(0.095, 3);
    expect(row.exactAgreement).toEqual({ value: 0.6 });
    expect(row.krippendorffAlpha.ci95!.low).toBeLessThan(0.095);
    expect(row.krippendorffAlpha.ci95!.high).toBeGreaterThan(0.095);
    expect(row.fleissKappa?.value).toEqual(expect.any(Number));
  });

  it("Fleiss (1971) diagnoses, six judges x thirty items on a 1-5 likert scale: Fleiss' kappa .430", async () => {
    const diagnoses = [
      [4, 4, 4, 4, 4, 4],
      [2, 2, 2, 5, 5, 5],
      [2, 3, 3, 3, 3, 5],
      [5, 5, 5, 5, 5, 5],
      [2, 2, 2, 4, 4, 4],
      [1, 1, 3, 3, 3, 3],
      [3, 3, 3, 3, 5, 5],
      [1, 1, 3, 3, 3, 4],
      [1, 1, 4, 4, 4, 4],
      [5, 5, 5, 5, 5, 5],
      [1, 4, 4, 4, 4, 4],
      [1, 2, 4, 4, 4, 4],
      [2, 2, 2, 3, 3, 3],
      [1, 4, 4, 4, 4, 4],
      [2, 2, 4, 4, 4, 5],
      [3, 3, 3, 3, 3, 5],
      [1, 1, 1, 4, 5, 5],
      [1, 1, 1, 1, 1, 2],
      [2, 2, 4, 4, 4, 4],
      [1, 3, 3, 5, 5, 5],
      [5, 5, 5, 5, 5, 5],
      [2, 4, 4, 4, 4, 4],
      [2, 2, 4, 5, 5, 5],
      [1, 1, 4, 4, 4, 4],
      [1, 4, 4, 4, 4, 5],
      [2, 2, 2, 2, 2, 4],
      [1, 1, 1, 1, 5, 5],
      [2, 2, 4, 4, 4, 4],
      [1, 3, 3, 3, 3, 3],
      [5, 5, 5, 5, 5, 5],
    ];
    const models = ["p1", "p2", "p3", "p4", "p5", "p6"];
    // A likert point d is the unit score (d - 1) / 4.
    const judge = createFakeJudge((request) => ({
      score: (diagnoses[promptIndex(request) - 1]![models.indexOf(request.model)]! - 1) / 4,
    }));
    const report = await runYaml(
      `
evals:
  - name: diagnosis
    response: "A patient record."
    rubric:
      scale: { likert: { min: 1, max: 5 } }
      criteria:
        - { name: diagnosis, description: "Which diagnosis fits." }
    judge: { panel: [${models.join(", ")}], aggregate: majority }
    matrix: { prompts: [${prompts(30)}] }
`,
      { judge, concurrency: 16 },
    );
    const row = report.agreement![0]!;
    expect(row).toMatchObject({ item: "diagnosis", level: "ordinal", units: 30 });
    expect(row.judges).toHaveLength(6);
    expect(row.fleissKappa!.value).toBeCloseTo(0.4302, 4);
  });

  it("one judge per eval has nothing to agree on: no agreement section", async () => {
    const judge = createFakeJudge(() => ({ score: 0.9 }));
    const report = await runYaml(`evals:\n  - name: e\n    response: r\n    rubric: "Good."\n`, {
      judge,
    });
    expect(report.agreement).toBeUndefined();
  });

  it("a jury of three on a single item: exact agreement, and alpha explained when undefined", async () => {
    const judge = createFakeJudge(() => ({ score: 1 }));
    const report = await runYaml(
      `evals:\n  - name: e\n    response: r\n    rubric: "Good."\n    judge: { jury: { size: 3 } }\n`,
      { judge },
    );
    expect(report.agreement).toEqual([
      {
        eval: "e",
        item: "(rubric)",
        level: "interval",
        judges: ["claude-sonnet-4-5 #1", "claude-sonnet-4-5 #2", "claude-sonnet-4-5 #3"],
        units: 1,
        exactAgreement: { value: 1 },
        krippendorffAlpha: {
          value: null,
          note: "every rating is the same, so agreement cannot be told from chance",
        },
      },
    ]);
  });

  it("a jury of three that splits on a single item: alpha n/a with the reason, not 0.000", async () => {
    let n = 0;
    const judge = createFakeJudge(() => ({ score: [0.1, 0.1, 0.95][n++ % 3]! }));
    const report = await runYaml(
      `evals:\n  - name: e\n    response: r\n    rubric: "Good."\n    judge: { jury: { size: 3 } }\n`,
      { judge },
    );
    expect(report.agreement).toHaveLength(1);
    expect(report.agreement![0]).toMatchObject({
      units: 1,
      exactAgreement: { value: 0 },
      krippendorffAlpha: {
        value: null,
        note: "one item only: agreement beyond chance needs at least two items to compare",
      },
    });
    expect(report.agreement![0]!.krippendorffAlpha.ci95).toBeUndefined();
  });
});
