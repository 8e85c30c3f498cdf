import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";

// Issue 12 §10: every problem at once. A typo the schema rejects no longer
// hides the errors only the engine's checks find (a bad ref, an unknown
// preset, a duplicate name), and cutting the typo out creates no error of its
// own (a ref to a rubric that has a typo is not "unknown").

function located(text: string): string[] {
  const result = loadSuite({ text, file: "suite.yaml" });
  if (result.ok) throw new Error("expected the suite to be invalid");
  return result.issues.map((i) => `${i.line}:${i.column} ${i.message}`);
}

describe("loadSuite reports schema issues and reference issues together", () => {
  it("a typo in one eval and an unknown ref in another: both, each on its line", () => {
    const issues = located(`rubrics:
  tone:
    criteria:
      - name: polite
        description: "Polite."
evals:
  - name: billing
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - name: correct total
          descripton: "States the total."
  - name: greeting
    response: "Hello!"
    rubric: { ref: tones }
`);
    expect(issues).toContainEqual(expect.stringMatching(/^12:\d+ unknown field "descripton"/));
    expect(issues).toContainEqual(
      '15:20 unknown rubric ref "tones" (did you mean "tone"?); defined rubrics: tone',
    );
  });

  it("a typo and an unknown preset in the same rubric: both", () => {
    const issues = located(`evals:
  - name: e
    response: "The answer."
    rubric:
      preset: helpfullness
      threshhold: 0.8
`);
    expect(issues).toEqual([
      expect.stringMatching(/^5:\d+ unknown preset "helpfullness"/),
      expect.stringMatching(/^6:\d+ unknown field "threshhold" \(did you mean "threshold"\?\)/),
    ]);
  });

  it("a wrong type and a duplicate eval name: both", () => {
    const issues = located(`evals:
  - name: twice
    response: "A."
    threshold: high
    rubric: "Is it right?"
  - name: twice
    response: "B."
    rubric: "Is it right?"
`);
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/^4:\d+ /);
    expect(issues[1]).toBe(
      '6:11 duplicate eval name "twice" (first defined at line 2); eval names must be unique',
    );
  });

  it("cutting a typo out adds nothing of its own: a misspelt ref, a ref to a rubric with a typo", () => {
    const misspelt = located(`evals:
  - name: e
    response: "A."
    rubric: { reff: tone }
`);
    expect(misspelt).toEqual([
      expect.stringMatching(/^4:\d+ unknown field "reff" \(did you mean "ref"\?\)/),
    ]);

    const broken = located(`rubrics:
  tone:
    criteria:
      - name: polite
        descripton: "Polite."
evals:
  - name: e
    response: "A."
    rubric: { ref: tone }
  - name: f
    response: "B."
    rubric: { ref: missing }
`);
    expect(broken.some((i) => i.includes('"tone"'))).toBe(false);
    expect(broken).toContainEqual(expect.stringMatching(/^5:\d+ unknown field "descripton"/));
    expect(broken).toContainEqual(expect.stringMatching(/^12:\d+ unknown rubric ref "missing"/));
  });

  it("stays fast on a large suite full of problems: 3,000 evals, each with a typo, each naming the one before", () => {
    const evals = Array.from(
      { length: 3_000 },
      (_, i) =>
        `  - name: e${i}\n    response: "e${i - 1}"\n    rubric: "Is it right?"\n    threshhold: 0.5\n`,
    ).join("");
    const started = performance.now();
    const issues = located(
      `evals:\n${evals}  - name: e0\n    response: "x"\n    rubric: "Is it right?"\n`,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(issues.filter((i) => i.includes('unknown field "threshhold"'))).toHaveLength(3_000);
    expect(issues.filter((i) => i.includes('duplicate eval name "e0"'))).toHaveLength(1);
  });
});
