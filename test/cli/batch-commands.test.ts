import { describe, expect, it } from "vitest";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `review --batch` and `calibrate --batch`: the same rounds through the real
// CLI and the SDK's messages.batches against the stand-in.

const FAST = ["--batch", "--poll-interval", "0.05"];

describe("--batch on review and calibrate", () => {
  it(
    "review --batch: a panel's categories in one batch, the review written as without it",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({
          toolInput: { reasoning: "covered", score: "pass", evidence: [], findings: [] },
        }),
      });
      await ws.write(
        "docs/prd.md",
        "# Checkout v2\n\nProblem: carts are abandoned at the payment step. Success: abandonment below 20%.\n",
      );
      await ws.write(
        "review.yaml",
        yaml(
          "rubrics:",
          "  prd:",
          "    name: PRD review",
          "    review_type: prd",
          "    categories:",
          "      - { id: problem, name: Problem, description: Names the problem. }",
          "      - { id: metrics, name: Metrics, description: Names success metrics. }",
          "evals:",
          "  - name: prd",
          "    document: { file: docs/prd.md, id: PRD-1, title: Checkout v2 }",
          "    rubric: { ref: prd }",
          "    judge: { panel: [claude-sonnet-4-5, claude-haiku-4-5] }",
        ),
      );
      const run = await ws.cli(["review", "--config", "review.yaml", ...FAST], judge.env);
      expect(run.code, run.stderr).toBe(0);
      expect(judge.api.batches.map((b) => b.requests.length)).toEqual([4]);
      expect(judge.api.requests.every((r) => r.customId !== undefined)).toBe(true);
      expect(run.stderr).toMatch(
        /batch msgbatch_\w+: ended, 4 submitted, 4 succeeded, 0 errored, 0 expired/,
      );
      const review = JSON.parse(run.stdout) as { decision: { passed: boolean } };
      expect(review.decision.passed).toBe(true);
    },
  );

  it(
    "calibrate --batch: every anchor graded in one batch",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "fine", score: 0.6 } }),
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "evals:",
          "  - name: refunds",
          '    response: "Refunds go back to the card within five days."',
          "    rubric:",
          "      criteria:",
          "        - name: specific",
          '          description: "Says where the money goes and when."',
          "          examples:",
          '            - { response: "Back to your card in 5 business days.", score: 1.0 }',
          '            - { response: "We handle refunds.", score: 0.0 }',
          '            - { response: "To the original payment method, within a week.", score: 1.0 }',
        ),
      );
      const run = await ws.cli(
        ["calibrate", "--config", "suite.yaml", "--json", ...FAST],
        judge.env,
      );
      expect(run.stderr).toMatch(/batch msgbatch_\w+: ended, 3 submitted, 3 succeeded/);
      expect(judge.api.batches.map((b) => b.requests.length)).toEqual([3]);
      const result = JSON.parse(run.stdout) as CalibrationResult;
      expect(result.criteria[0]!.items.map((i) => i.judged)).toEqual([0.6, 0.6, 0.6]);
    },
  );
});
