import { describe, expect, test } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { REPORTER_NAMES, REPORTERS } from "../../lib/report/registry";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A free-form rubric's verdict keeps the judge's reasoning and evidence
// (issue 19): the JSON result carries them on its judge, the evidence checked
// against the candidate, and every reporter says why.

const REASONING = "It gives the number but omits the unit REASON-42.";

describe("free-form reasoning", () => {
  test(
    "a failing free-form result's reasoning and evidence are in the report and in every reporter",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({
          verdict: { reasoning: REASONING, score: 0.3, evidence: "forty-two" },
        }),
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "evals:",
          "  - name: distance",
          '    prompt: "How far is it?"',
          '    response: "It is forty-two."',
          '    rubric: "Gives the distance with its unit."',
        ),
      );
      const run = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], judge.env);
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.results[0]!.judges[0]).toMatchObject({
        reasoning: REASONING,
        evidence: "forty-two",
        evidenceFound: true,
      });
      for (const name of REPORTER_NAMES) {
        const text = REPORTERS[name].render(report, { color: false });
        expect(text, name).toContain("REASON-42");
      }
    },
  );
});
