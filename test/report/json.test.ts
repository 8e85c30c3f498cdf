import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { jsonReporter } from "../../lib/report/json";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { buildSampleReport } from "../support/sample-report";

describe("json reporter", () => {
  it("is the report itself, as pretty JSON", () => {
    const report = buildSampleReport();
    const text = jsonReporter.render(report, { color: false });
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toMatch(/^\{\n {2}"schemaVersion": 1,\n {2}"tool": /);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("gives the same bytes for the same report however its keys were ordered", () => {
    const report = buildSampleReport();
    const reversed = JSON.parse(JSON.stringify(report), (_key, value: unknown) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as Report;
    expect(Object.keys(reversed)[0]).not.toBe(Object.keys(report)[0]);
    expect(jsonReporter.render(reversed, { color: false })).toBe(
      jsonReporter.render(report, { color: false }),
    );
  });
});

describe("json reporter: rates at 4 decimals, as the README says", () => {
  it("win and tie rates of a comparison, agreement values and margins keep 4 decimals, not 12 significant digits", async () => {
    const judge = createFakeJudge((request) => {
      const first = /<response_a>\n(.*)\n/.exec(request.candidatePrompt)?.[1] ?? "";
      // B wins pairs 1 and 2 in both orders; pair 3 goes to the first slot (a biased tie).
      const winner: "A" | "B" = first.endsWith("3") ? "A" : first.startsWith("long") ? "A" : "B";
      return {
        verdict: {
          reasoning: "r",
          winner,
          confidence: 0.9,
          category_scores: [{ category: "accuracy", winner, margin: 1 / 3, reasoning: "r" }],
        },
      };
    });
    const report = await runYaml(
      `evals:
  - name: thirds
    rubric:
      criteria:
        - { name: accuracy, description: "Is it accurate?" }
    compare:
      items:
        - { input: "Q1", output_a: "short 1", output_b: "long 1" }
        - { input: "Q2", output_a: "short 2", output_b: "long 2" }
        - { input: "Q3", output_a: "short 3", output_b: "long 3" }
`,
      { judge },
    );
    const text = jsonReporter.render(report, { color: false });
    const long = [...text.matchAll(/"(\w+)": (-?\d+\.\d{5,})/g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(long).toEqual([]);
    expect(text).toContain('"win_rate_b": 0.6667');
    expect(text).toContain('"tie_rate": 0.3333');
  });
});
