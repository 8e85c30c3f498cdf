import { describe, expect, it } from "vitest";
import { createFakeJudge } from "../../../support/fake-judge";
import { runYaml } from "../../../support/run-yaml";
import { jurorAgreementMatrices } from "../../../../lib/engine/trust/agreement/juror-agreement-matrix";
import { judgeDisagreements } from "../../../../lib/engine/trust/agreement/judge-disagreements";
import type { JudgeRequest, VerdictKind } from "../../../../lib/engine/ports/judge-port";

// The agreement view's juror × juror matrix and disagreement rows, played
// through the engine: a panel of three judges over four matrix cells on a
// pass/fail criterion, with values worked out by hand below.

const promptIndex = (request: JudgeRequest<VerdictKind>) =>
  Number(/<user_prompt>\nitem (\d+)\n/.exec(request.candidatePrompt)?.[1]);

// Item:      1  2  3  4
// judge-a:   1  1  0  1
// judge-b:   1  0  0  1
// judge-c:   0  0  0  1
const SCORES: Record<string, number[]> = {
  "judge-a": [1, 1, 0, 1],
  "judge-b": [1, 0, 0, 1],
  "judge-c": [0, 0, 0, 1],
};

const SUITE = `
evals:
  - name: refusal
    response: "I can't help with that."
    rubric:
      scale: boolean
      criteria:
        - { name: refuses, description: "Refuses the request." }
    judge: { panel: [judge-a, judge-b, judge-c], aggregate: majority }
    matrix: { prompts: ["item 1", "item 2", "item 3", "item 4"] }
`;

describe("juror agreement matrix and disagreements", () => {
  it("pass/fail ratings: each pair's share of agreed cells, and the two split cells listed with every judge's reasoning", async () => {
    const judge = createFakeJudge((request) => ({
      score: SCORES[request.model]![promptIndex(request) - 1]!,
      reasoning: `${request.model} on item ${promptIndex(request)}`,
    }));
    const report = await runYaml(SUITE, { judge });

    const [matrix, ...rest] = jurorAgreementMatrices(report.results);
    expect(rest).toEqual([]);
    expect(matrix).toMatchObject({
      eval: "refusal",
      level: "nominal",
      judges: ["judge-a", "judge-b", "judge-c"],
    });
    const share = matrix!.cells.map((row) => row.map((c) => `${c.agreed}/${c.units}`));
    // a-b differ on item 2; a-c on items 1 and 2; b-c on item 1.
    expect(share).toEqual([
      ["4/4", "3/4", "2/4"],
      ["3/4", "4/4", "3/4"],
      ["2/4", "3/4", "4/4"],
    ]);

    const rows = judgeDisagreements(report.results);
    // Items 1 (a, b pass; c fails) and 2 (a passes; b, c fail); 3 and 4 are unanimous.
    expect(
      rows.map((r) => [
        r.resultName,
        r.item,
        r.verdicts.map((v) => `${v.judge}:${v.label}`).join(" "),
      ]),
    ).toEqual([
      ["refusal [prompt=#1]", "refuses", "judge-a:pass judge-b:pass judge-c:fail"],
      ["refusal [prompt=#2]", "refuses", "judge-a:pass judge-b:fail judge-c:fail"],
    ]);
    expect(rows[0]!.verdicts.find((v) => v.judge === "judge-c")!.reasoning).toBe(
      "judge-c on item 1",
    );
    expect(rows.every((r) => r.splitDecision && r.spread === 1)).toBe(true);
  });

  it("unit scores: a spread of 0.25 or a split pass/fail is a disagreement, a small spread on one side of the threshold is not", async () => {
    // item 1: 0.80 / 0.75 (same side of 0.5, spread 0.05): agree; item 2: 0.55 / 0.45 (split): disagree;
    // item 3: 1.0 / 0.7 (spread 0.30, both pass): disagree.
    const unit: Record<string, number[]> = {
      "judge-a": [0.8, 0.55, 1],
      "judge-b": [0.75, 0.45, 0.7],
    };
    const judge = createFakeJudge((request) => ({
      score: unit[request.model]![promptIndex(request) - 1]!,
    }));
    const report = await runYaml(
      `
evals:
  - name: summary
    response: "A summary."
    rubric:
      threshold: 0.5
      criteria:
        - { name: faithful, description: "Faithful to the source." }
    judge: { panel: [judge-a, judge-b] }
    matrix: { prompts: ["item 1", "item 2", "item 3"] }
`,
      { judge },
    );
    const rows = judgeDisagreements(report.results);
    expect(rows.map((r) => [r.resultName, r.splitDecision, Number(r.spread.toFixed(2))])).toEqual([
      ["summary [prompt=#2]", true, 0.1],
      ["summary [prompt=#3]", false, 0.3],
    ]);
    const [matrix] = jurorAgreementMatrices(report.results);
    // Never exactly equal; mean |difference| (0.05 + 0.10 + 0.30) / 3 = 0.15.
    expect(matrix!.cells[0]![1]!.agreement).toBe(0);
    expect(matrix!.cells[0]![1]!.meanAbsDifference).toBeCloseTo(0.15, 10);
  });

  it("a single judge: no matrix, no disagreements", async () => {
    const report = await runYaml(`evals:\n  - name: e\n    response: r\n    rubric: "Good."\n`, {
      judge: createFakeJudge(() => ({ score: 0.2 })),
    });
    expect(jurorAgreementMatrices(report.results)).toEqual([]);
    expect(judgeDisagreements(report.results)).toEqual([]);
  });
});
