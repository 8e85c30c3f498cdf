import { describe, expect, it } from "vitest";
import { XMLParser } from "fast-xml-parser";
import type { Report } from "../../lib/engine/results/report";
import { REPORTERS } from "../../lib/report/registry";
import { always, byCriterion, createFakeJudge } from "../support/fake-judge";
import { GUARD_AT_HALF, jurorVerdicts } from "../support/jury-suites";
import { runYaml } from "../support/run-yaml";

// Every reporter shows a jury's criterion as one combined verdict whose gate
// agrees with it ("1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70"), and each juror's
// own verdict (and, where the format carries reasoning, its reasoning) under
// the juror, never one juror's reasoning under the mean. Numbers read as
// people read them, and a triggered guard is never a tick.

const SONNET = "claude-sonnet-4-5";

const SUITE = `
evals:
  - name: jury fails the gate
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change.", required: true }
`;

async function juryReport(): Promise<Report> {
  return runYaml(SUITE, {
    judge: createFakeJudge(byCriterion({ accurate: jurorVerdicts(1, 0.65, 0.65) })),
  });
}

const render = (report: Report, name: keyof typeof REPORTERS) =>
  REPORTERS[name].render(report, { color: false });
const SUMMARY = "1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70";
const GATE = `required criterion "accurate" failed: ${SUMMARY}`;

describe("a jury's criterion in every reporter", () => {
  it("pretty: the combined verdict on the criterion's line, and each juror's own verdict under it", async () => {
    const text = render(await juryReport(), "pretty");
    expect(text).toMatch(
      new RegExp(`✗ accurate {2}0\\.77 / 0\\.70 {2}${SUMMARY} {2}\\[required \\(failed\\)\\]`),
    );
    expect(text).toContain(`gate: ${GATE}`);
    expect(text).toContain(`${SONNET} #1: 1.00 pass`);
    expect(text).toContain(`${SONNET} #2: 0.65 fail (required failed)`);
    // One juror's 0.65 is not the eval's reason any more.
    expect(text).not.toContain("scored 0.65");
  });

  it("junit: each juror's reasoning under that juror in the failure body", async () => {
    const xml = render(await juryReport(), "junit");
    const body = String(
      new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites.testsuite.testcase.failure[
        "#text"
      ],
    );
    expect(body).toContain(SUMMARY);
    expect(body).toContain(`${SONNET} #1: 1.00 pass · reasoning: juror 1 gave a score of 1`);
    expect(body).toContain(
      `${SONNET} #3: 0.65 fail (required failed) · reasoning: juror 3 gave a score of 0.65`,
    );
    expect(body).not.toMatch(/^ {2}reasoning: /m);
  });

  it("md and html: the combination, then each juror with its own reasoning", async () => {
    const report = await juryReport();
    const md = render(report, "md");
    expect(md).toContain(
      `${SUMMARY}<br>${SONNET} #1: 1.00 pass: juror 1 gave a score of 1<br>${SONNET} #2: 0.65 fail (required failed): juror 2 gave a score of 0.65`,
    );
    const html = render(report, "html");
    expect(html).toContain(`<div class="muted">${SUMMARY}</div>`);
    expect(html).toContain(
      `<div class="juror"><div class="muted">${SONNET} #2: 0.65 fail (required failed)</div><div>juror 2 gave a score of 0.65</div></div>`,
    );
  });

  it("json and ndjson: the combined verdict and each juror's, with the jury's gate", async () => {
    const report = await juryReport();
    for (const text of [render(report, "json"), render(report, "ndjson").split("\n")[1]!]) {
      const parsed = JSON.parse(text);
      const result = parsed.results?.[0] ?? parsed;
      expect(result.gates).toEqual([GATE]);
      expect(result.criteria[0]).toMatchObject({
        passed: false,
        gates: ["required_failed"],
        reasoning: "",
        combined: { method: "jury", judges: 3, passed: 1, summary: SUMMARY },
      });
      expect(result.criteria[0].verdicts.map((v: { passed: boolean }) => v.passed)).toEqual([
        true,
        false,
        false,
      ]);
    }
  });

  it("tap, sarif and gitlab: the jury's gate, not one juror's", async () => {
    const report = await juryReport();
    const tap = render(report, "tap");
    expect(tap).toContain(`gates: ${JSON.stringify([GATE])}`);
    expect(tap).toContain(`"combined":"${SUMMARY}"`);
    expect(tap).toContain(`"${SONNET} #2: 0.65 fail (required failed)"`);
    for (const name of ["sarif", "gitlab"] as const) {
      const text = render(report, name);
      expect(text, name).toContain(GATE.replace(/"/g, '\\"'));
      expect(text, name).not.toContain("scored 0.65");
    }
  });
});

describe("a single judge's triggered guard", () => {
  it("is never a tick, even when its inverted score clears the criterion's threshold", async () => {
    const report = await runYaml(GUARD_AT_HALF, {
      judge: createFakeJudge(byCriterion({ leak: { score: 0.5 } })),
    });
    const text = render(report, "pretty");
    // Before: "✓ leak  0.50 / 0.10  [guard (triggered)]".
    expect(text).toContain("✗ leak  0.50 / 0.10  [guard (triggered)]");
    expect(render(report, "md")).toMatch(/\| leak \| fail \|/);
  });
});

describe("numbers as people read them", () => {
  const yaml = `
evals:
  - name: juried mean
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3 } }
    rubric: "Summarises the release."
`;

  it("writes a mean of 0.7000000000000001 as 0.7 in json, ndjson and tap, and counts one eval as one", async () => {
    const report = await runYaml(yaml, {
      judge: createFakeJudge(always([{ score: 0.9 }, { score: 0.8 }, { score: 0.4 }])),
    });
    expect(report.results[0]!.score).toBe(0.7000000000000001);
    for (const name of ["json", "ndjson", "tap"] as const) {
      const text = render(report, name);
      expect(text, name).not.toContain("0.7000000000000001");
      expect(text, name).toMatch(/"?score"?: ?0\.7\b/);
    }
    // The report object keeps full precision.
    expect(report.results[0]!.score).toBe(0.7000000000000001);
    expect(render(report, "tap")).toContain("# 1 cell: ");
    expect(render(report, "md")).toContain("**1 cell:**");
  });
});
