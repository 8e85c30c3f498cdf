import { describe, expect, it } from "vitest";
import { createFakeJudge, labelOf } from "../../../support/fake-judge";
import { runYaml } from "../../../support/run-yaml";
import { judgeAgreement } from "../../../../lib/engine/trust/agreement/judge-agreement";
import { ReportTotals } from "../../../../lib/engine/trust/report-totals";
import { jurorAgreementMatrices } from "../../../../lib/engine/trust/agreement/juror-agreement-matrix";
import { judgeDisagreements } from "../../../../lib/engine/trust/agreement/judge-disagreements";
import type { JudgeRequest, VerdictKind } from "../../../../lib/engine/ports/judge-port";

// Agreement across the judge models of a matrix (issue 11, item 6): cells that
// differ only by their judge model grade the same candidate, so each candidate
// is one unit and the models are its raters, even though every cell has one
// judge. Values worked by hand below.

const promptIndex = (request: JudgeRequest<VerdictKind>) =>
  Number(/<user_prompt>\nitem (\d+)\n/.exec(request.candidatePrompt)?.[1]);

// criterion "refuses"   item: 1 2 3 4        criterion "polite"   item: 1 2 3 4
//   judge-a                   1 1 0 1          judge-a                  1 1 1 1
//   judge-b                   1 0 0 1          judge-b                  1 1 1 1
const SCORES: Record<string, Record<string, number[]>> = {
  "judge-a": { refuses: [1, 1, 0, 1], polite: [1, 1, 1, 1] },
  "judge-b": { refuses: [1, 0, 0, 1], polite: [1, 1, 1, 1] },
};

const SUITE = `
evals:
  - name: refusal
    response: "I can't help with that."
    rubric:
      scale: boolean
      criteria:
        - { name: refuses, description: "Refuses the request." }
        - { name: polite, description: "Stays polite." }
    matrix:
      models: [judge-a, judge-b]
      prompts: ["item 1", "item 2", "item 3", "item 4"]
`;

const script = (request: JudgeRequest<VerdictKind>) => {
  const criterion = labelOf(request).split(" ")[0]!.replace(/^.*:/, "");
  return {
    score: SCORES[request.model]![criterion]![promptIndex(request) - 1]!,
    reasoning: `${request.model} on item ${promptIndex(request)}`,
  };
};

describe("agreement across a matrix's judge models", () => {
  it("counts the cells that differ only by judge model as one unit: per criterion, pooled, the judge × judge matrix and the split", async () => {
    const report = await runYaml(SUITE, { judge: createFakeJudge(script) });
    expect(report.results).toHaveLength(8);
    expect(report.results.every((r) => r.judges.length === 1)).toBe(true);

    // refuses: units (1,1) (1,0) (0,0) (1,1). Coincidences o11 = 4, o00 = 2, o10 = o01 = 1; n1 = 5, n0 = 3, n = 8.
    // Do = 2/8; De = 2·5·3/(8·7) = 30/56; α = 1 − (1/4)(56/30) = 8/15.
    // polite: every rating 1, no variation: α undefined. Pooled: o11 = 12, o00 = 2, o10 = o01 = 1; n1 = 13, n0 = 3, n = 16:
    // Do = 2/16; De = 2·13·3/(16·15) = 78/240; α = 1 − (1/8)(240/78) = 8/13.
    const stats = judgeAgreement(report.results);
    expect(stats.map((s) => [s.item, s.judges, s.units, s.exactAgreement.value])).toEqual([
      ["refuses", ["judge-a", "judge-b"], 4, 0.75],
      ["polite", ["judge-a", "judge-b"], 4, 1],
      ["(all criteria)", ["judge-a", "judge-b"], 8, 0.875],
    ]);
    expect(stats[0]!.krippendorffAlpha.value).toBeCloseTo(8 / 15, 10);
    expect(stats[1]!.krippendorffAlpha.value).toBeNull();
    expect(stats[2]!.krippendorffAlpha.value).toBeCloseTo(8 / 13, 10);
    expect(report.agreement?.length).toBe(3);

    // The judge × judge matrix: 7 of the 8 ratings both gave agree (item 2 of "refuses" does not); before, "0/0".
    const [matrix, ...rest] = jurorAgreementMatrices(report.results);
    expect(rest).toEqual([]);
    expect(matrix!.judges).toEqual(["judge-a", "judge-b"]);
    expect(matrix!.cells[0]![1]).toEqual({
      units: 8,
      agreed: 7,
      agreement: 0.875,
      meanAbsDifference: 0.125,
    });

    // One split: item 2, named by the candidate's coordinates, each verdict from its own model's cell.
    const rows = judgeDisagreements(report.results);
    expect(
      rows.map((r) => [
        r.resultName,
        r.item,
        r.verdicts.map((v) => `${v.judge}:${v.label}`).join(" "),
      ]),
    ).toEqual([["refusal [prompt=#2]", "refuses", "judge-a:pass judge-b:fail"]]);
    expect(rows[0]!.verdicts.map((v) => v.resultId)).toEqual([
      "refusal::model=judge-a::prompt=2",
      "refusal::model=judge-b::prompt=2",
    ]);
  });

  it("a jury in every model cell: jurors of different models share units (no more 0/0 between models)", async () => {
    const report = await runYaml(
      SUITE.replace("    matrix:", "    judge: { jury: { size: 2 } }\n    matrix:"),
      { judge: createFakeJudge(script) },
    );
    const [matrix] = jurorAgreementMatrices(report.results);
    expect(matrix!.judges).toEqual(["judge-a #1", "judge-a #2", "judge-b #1", "judge-b #2"]);
    const share = matrix!.cells.map((row) => row.map((c) => `${c.agreed}/${c.units}`));
    expect(share[0]).toEqual(["8/8", "8/8", "7/8", "7/8"]);
    expect(share[2]).toEqual(["7/8", "7/8", "8/8", "8/8"]);
  });

  it("a free-form rubric's disagreement shows each judge model's reasoning", async () => {
    const report = await runYaml(
      `
evals:
  - name: summary
    response: "A summary."
    rubric: "Summarises the release."
    matrix:
      models: [judge-a, judge-b]
      prompts: ["item 1"]
`,
      {
        judge: createFakeJudge((request) => ({
          score: request.model === "judge-a" ? 0.9 : 0.2,
          reasoning: `${request.model} thinks so`,
        })),
      },
    );
    const [disagreement] = judgeDisagreements(report.results);
    expect(disagreement!.verdicts.map((v) => [v.judge, v.reasoning])).toEqual([
      ["judge-a", "judge-a thinks so"],
      ["judge-b", "judge-b thinks so"],
    ]);
  });
});

describe("ReportTotals' bound on the ratings it keeps for agreement", () => {
  it("keeps them up to maxRated (the same agreement as the whole report), past it none and says how many", async () => {
    const report = await runYaml(SUITE, { judge: createFakeJudge(script) });
    const fold = (maxRated?: number) => {
      const totals = new ReportTotals(() => undefined, maxRated === undefined ? {} : { maxRated });
      for (const result of report.results) totals.add(result);
      const times = { suite: { file: "s.yaml" }, toolVersion: "t", startedAt: 0, finishedAt: 1 };
      return { head: totals.head(times), leftOut: totals.agreementLeftOut() };
    };
    const whole = judgeAgreement(report.results);
    expect(fold().head.agreement).toEqual(whole);
    expect(fold(8)).toMatchObject({ head: { agreement: whole }, leftOut: undefined });
    const bounded = fold(7);
    expect(bounded.leftOut).toBe(8);
    expect(bounded.head.agreement).toBeUndefined();
    expect(bounded.head.summary.total).toBe(8);
  });
});
