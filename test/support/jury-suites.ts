import type { FakeVerdict } from "./fake-judge";

// Suites and answers shared by the engine and reporter tests of juries.

/** A guard the judge finds present at exactly 0.5, against a criterion threshold of 0.1: its inverted 0.5 clears it, yet the guard triggered. */
export const GUARD_AT_HALF = `
evals:
  - name: guarded
    response: "Invoice 42 totaled $120.00."
    rubric:
      criteria:
        - { name: leak, description: "Exposes a card number.", guard: true, threshold: 0.1 }
`;

/** One verdict per juror, in juror order, each reasoning naming its juror and score. */
export const jurorVerdicts = (...scores: number[]): FakeVerdict[] =>
  scores.map((score, i) => ({
    score,
    reasoning: `juror ${i + 1} gave a score of ${score}`,
  }));
