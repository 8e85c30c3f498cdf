import { describe, expect, test } from "vitest";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `calibrate`'s marks: a criterion the judge missed on some anchors (outliers)
// gets no tick, with or without --max-error, and the output says what each mark means.

const SUITE = yaml(
  "evals:",
  "  - name: shipping",
  '    response: "It ships in 2 days."',
  "    rubric:",
  "      criteria:",
  "        - name: states the delay",
  '          description: "Says when the parcel ships."',
  "          examples:",
  '            - { response: "Your parcel ships on Monday.", score: 1.0 }',
  '            - { response: "Maybe soon.", score: 0.0 }',
  '            - { response: "Ask the courier.", score: 0.0 }',
  "        - name: courteous",
  '          description: "Courteous tone."',
  "          examples:",
  '            - { response: "Thanks for waiting!", score: 1.0 }',
);

// Right on the labelled-1 anchors, 0.875 on the labelled-0 ones: two outliers, MAE 0.583.
const judgeReplies = (request: { user: string }) => ({
  verdict: { reasoning: "r", score: /Maybe|courier/.test(candidateOf(request)) ? 0.875 : 1 },
});

describe.concurrent("calibrate's marks", () => {
  test("no --max-error: MAE 0.583 with 2 outliers is '!', not '✓'; a clean criterion keeps '✓'; the legend says what they mean", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: judgeReplies });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(["calibrate", "--config", "suite.yaml"], judge.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^! shipping › states the delay \(unit\): MAE 0\.583, .* 2 outliers$/m,
    );
    expect(run.stdout).not.toMatch(/^✓ shipping › states the delay/m);
    expect(run.stdout).toMatch(/^✓ shipping › courteous \(unit\): MAE 0\.000, .* 0 outliers$/m);
    expect(run.stdout).toContain(
      "✓ every item within ±0.25 of its label · ! outliers: items off by more than ±0.25 · ✗ an item not graded (exit 1; with no --max-error, MAE alone fails nothing)",
    );
  });

  test("--max-error above the MAE: still '!' for the outliers; below it: '✗' and exit 1", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: judgeReplies });
    await ws.write("suite.yaml", SUITE);
    const loose = await ws.cli(
      ["calibrate", "--config", "suite.yaml", "--max-error", "0.7"],
      judge.env,
    );
    expect(loose.code).toBe(0);
    expect(loose.stdout).toMatch(/^! shipping › states the delay/m);
    const tight = await ws.cli(
      ["calibrate", "--config", "suite.yaml", "--max-error", "0.5"],
      judge.env,
    );
    expect(tight.code).toBe(1);
    expect(tight.stdout).toMatch(/^✗ shipping › states the delay/m);
    expect(tight.stdout).toContain("✗ MAE above --max-error 0.5, or an item not graded (exit 1)");
  });
});
