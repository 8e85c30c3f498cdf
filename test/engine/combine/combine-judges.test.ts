import { describe, expect, it } from "vitest";
import {
  always,
  byCriterion,
  byModel,
  createFakeJudge,
  type FakeScript,
} from "../../support/fake-judge";
import { criterion, runOne } from "../../support/run-yaml";

// Juries (one model, several jurors) and panels (one verdict per model),
// as the report shows them.

const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";
const OPUS = "claude-opus-4-1";

const juried = (consensus: number) => `
evals:
  - name: subjective call, juried
    prompt: "Summarize the release."
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: "Accurate and complete summary of the release."
    judge:
      model: ${SONNET}
      jury:
        size: 3
        consensus: ${consensus}
`;

const paneled = (judge: string, models = [SONNET, HAIKU]) => `
evals:
  - name: subjective call, ensemble
    prompt: "Summarize the release."
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: "Accurate and complete summary of the release."
    judge:
      panel: [${models.join(", ")}]
      ${judge}
`;

describe("jury", () => {
  it.each([0.66, 0.67])(
    "passes 2 of 3 jurors at consensus %s, reporting the mean score and the summed cost",
    async (consensus) => {
      const judge = createFakeJudge(
        always([
          { score: 0.9, costUsd: 0.01 },
          { score: 0.8, costUsd: 0.02 },
          { score: 0.2, costUsd: 0.03 },
        ]),
      );
      const result = await runOne(juried(consensus), { judge });
      expect(judge.requests).toHaveLength(3);
      expect(result.status).toBe("passed");
      expect(result.score).toBeCloseTo((0.9 + 0.8 + 0.2) / 3, 10);
      expect(result.costUsd).toBeCloseTo(0.06, 10);
      expect(result.judgeCalls).toBe(3);
      expect(result.judge).toEqual({ models: [SONNET], jurySize: 3, consensus });
      // The mean (0.63) is below the threshold; the reason must not claim that decided it.
      expect(result.reason).toBe(
        `jury: 2 of 3 jurors passed the whole rubric, 2 needed (consensus ${consensus}); mean score 0.63`,
      );
    },
  );

  it("keeps every juror's verdict", async () => {
    const judge = createFakeJudge(always([{ score: 0.9 }, { score: 0.8 }, { score: 0.2 }]));
    const result = await runOne(juried(0.66), { judge });
    expect(result.judges).toMatchObject([
      { judge: `${SONNET} #1`, model: SONNET, juror: 1, score: 0.9, passed: true },
      { judge: `${SONNET} #2`, model: SONNET, juror: 2, score: 0.8, passed: true },
      { judge: `${SONNET} #3`, model: SONNET, juror: 3, score: 0.2, passed: false },
    ]);
  });

  it("fails 1 of 3 jurors at consensus 0.66, even with a mean above the threshold", async () => {
    const judge = createFakeJudge(always([{ score: 1 }, { score: 0.65 }, { score: 0.65 }]));
    const result = await runOne(juried(0.66), { judge });
    expect(result.score).toBeCloseTo(0.7667, 4);
    expect(result.status).toBe("failed");
    expect(result.reason).toContain(
      "jury: 1 of 3 jurors passed the whole rubric, 2 needed (consensus 0.66)",
    );
  });

  it("fails 2 of 3 jurors at a consensus of 0.7", async () => {
    const judge = createFakeJudge(always([{ score: 0.9 }, { score: 0.8 }, { score: 0.2 }]));
    expect((await runOne(juried(0.7), { judge })).status).toBe("failed");
  });

  it("keeps per-juror verdicts on each criterion", async () => {
    const yaml = `
evals:
  - name: juried criteria
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 2 } }
    rubric:
      criteria:
        - name: accurate
          description: "States the correct change."
`;
    const judge = createFakeJudge(byCriterion({ accurate: [{ score: 0.6 }, { score: 1 }] }));
    const result = await runOne(yaml, { judge });
    expect(criterion(result, "accurate").verdicts.map((v) => [v.judge, v.score])).toEqual([
      [`${SONNET} #1`, 0.6],
      [`${SONNET} #2`, 1],
    ]);
    expect(criterion(result, "accurate").score).toBeCloseTo(0.8, 10);
    // Consensus defaults to 0.5: one of two jurors passing is enough.
    expect(result.status).toBe("passed");
  });
});

describe("panel", () => {
  it("mean: gates the mean of the per-model scores", async () => {
    const judge = createFakeJudge(byModel({ [SONNET]: { score: 0.9 }, [HAIKU]: { score: 0.6 } }));
    const result = await runOne(paneled("aggregate: mean"), { judge });
    expect(judge.requests.map((r) => r.model)).toEqual([SONNET, HAIKU]);
    expect(result.score).toBeCloseTo(0.75, 10);
    expect(result.status).toBe("passed");
    expect(result.judge).toEqual({
      models: [SONNET, HAIKU],
      jurySize: 1,
      consensus: 0.5,
      aggregate: "mean",
    });
    expect(result.reason).toBe("panel mean: 0.75 ≥ threshold 0.70 over 2 models; mean score 0.75");
    expect(result.judges.map((j) => [j.judge, j.score, j.passed])).toEqual([
      [SONNET, 0.9, true],
      [HAIKU, 0.6, false],
    ]);
  });

  it("mean is the default aggregate", async () => {
    const judge = createFakeJudge(byModel({ [SONNET]: { score: 0.7 }, [HAIKU]: { score: 0.6 } }));
    const result = await runOne(paneled(""), { judge });
    expect(result.judge.aggregate).toBe("mean");
    expect(result.status).toBe("failed");
  });

  it("median: gates the median, while the reported score stays the mean", async () => {
    const judge = createFakeJudge(
      byModel({ [SONNET]: { score: 0.9 }, [HAIKU]: { score: 0.8 }, [OPUS]: { score: 0.1 } }),
    );
    const result = await runOne(paneled("aggregate: median", [SONNET, HAIKU, OPUS]), { judge });
    // The median 0.8 passes; the mean 0.6 would not.
    expect(result.status).toBe("passed");
    expect(result.score).toBeCloseTo(0.6, 10);
    expect(result.reason).toBe(
      "panel median: 0.80 ≥ threshold 0.70 over 3 models; mean score 0.60",
    );
  });

  it("median: fails when the median is below the threshold, though the mean clears it", async () => {
    const judge = createFakeJudge(
      byModel({ [SONNET]: { score: 0.65 }, [HAIKU]: { score: 0.6 }, [OPUS]: { score: 1 } }),
    );
    const result = await runOne(paneled("aggregate: median", [SONNET, HAIKU, OPUS]), { judge });
    expect(result.score).toBeCloseTo(0.75, 10);
    expect(result.status).toBe("failed");
    expect(result.reason).toBe(
      "panel median: 0.65 < threshold 0.70 over 3 models; mean score 0.75",
    );
  });

  it("majority: passes when most models pass, whatever the mean", async () => {
    const judge = createFakeJudge(
      byModel({ [SONNET]: { score: 0.7 }, [HAIKU]: { score: 0.7 }, [OPUS]: { score: 0 } }),
    );
    const result = await runOne(paneled("aggregate: majority", [SONNET, HAIKU, OPUS]), { judge });
    expect(result.score).toBeCloseTo(0.4667, 4);
    expect(result.status).toBe("passed");
    expect(result.reason).toContain("panel majority: 2 of 3 models passed");
  });

  it("majority: fails when most models fail, whatever the mean", async () => {
    const judge = createFakeJudge(
      byModel({ [SONNET]: { score: 0.69 }, [HAIKU]: { score: 0.69 }, [OPUS]: { score: 1 } }),
    );
    const result = await runOne(paneled("aggregate: majority", [SONNET, HAIKU, OPUS]), { judge });
    expect(result.score).toBeCloseTo(0.7933, 4);
    expect(result.status).toBe("failed");
  });

  describe("an even majority split", () => {
    const split: FakeScript = byModel({ [SONNET]: { score: 0.9 }, [HAIKU]: { score: 0.3 } });

    it("passes with tie_break: pass", async () => {
      const result = await runOne(paneled("aggregate: majority\n      tie_break: pass"), {
        judge: createFakeJudge(split),
      });
      expect(result.status).toBe("passed");
      expect(result.reason).toContain("an even split, settled by tie_break: pass");
    });

    it("fails with tie_break: fail", async () => {
      const result = await runOne(paneled("aggregate: majority\n      tie_break: fail"), {
        judge: createFakeJudge(split),
      });
      expect(result.status).toBe("failed");
      expect(result.reason).toContain("an even split, settled by tie_break: fail");
    });

    it("fails by default", async () => {
      const result = await runOne(paneled("aggregate: majority"), {
        judge: createFakeJudge(split),
      });
      expect(result.status).toBe("failed");
    });
  });

  it("keeps one verdict per model on each criterion, and per juror within a model", async () => {
    const yaml = `
evals:
  - name: panel of juries
    response: "The 2.3.0 release added per-tenant rate limits."
    judge:
      panel: [${SONNET}, ${HAIKU}]
      jury: { size: 2 }
    rubric:
      criteria:
        - name: accurate
          description: "States the correct change."
`;
    const judge = createFakeJudge(
      byModel({
        [SONNET]: [{ score: 1 }, { score: 0.8 }],
        [HAIKU]: [{ score: 0.6 }, { score: 0.4 }],
      }),
    );
    const result = await runOne(yaml, { judge });
    expect(judge.requests).toHaveLength(4);
    expect(
      criterion(result, "accurate").verdicts.map((v) => [v.judge, v.model, v.juror, v.score]),
    ).toEqual([
      [`${SONNET} #1`, SONNET, 1, 1],
      [`${SONNET} #2`, SONNET, 2, 0.8],
      [`${HAIKU} #1`, HAIKU, 1, 0.6],
      [`${HAIKU} #2`, HAIKU, 2, 0.4],
    ]);
    expect(result.judges.map((j) => j.judge)).toEqual([
      `${SONNET} #1`,
      `${SONNET} #2`,
      `${HAIKU} #1`,
      `${HAIKU} #2`,
    ]);
    // Panel mean of the jury means (0.9 and 0.5).
    expect(result.score).toBeCloseTo(0.7, 10);
    expect(result.status).toBe("passed");
  });

  it("fails when one model's verdict trips a guard, whatever the panel mean", async () => {
    const yaml = `
evals:
  - name: guarded panel
    response: "Invoice 42 totaled $120.00."
    judge: { panel: [${SONNET}, ${HAIKU}] }
    rubric:
      threshold: 0.5
      criteria:
        - name: leaks a card number
          description: "The answer exposes a full card number."
          guard: true
`;
    const judge = createFakeJudge(byModel({ [SONNET]: { score: 0 }, [HAIKU]: { score: 0.6 } }));
    const result = await runOne(yaml, { judge });
    expect(result.score).toBeCloseTo(0.7, 10);
    expect(result.status).toBe("failed");
    expect(result.gates).toEqual([
      'guard "leaks a card number" triggered: the judge found it present (0.60)',
    ]);
  });
});
