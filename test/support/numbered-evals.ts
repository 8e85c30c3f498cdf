// Suites of `n` numbered evals (e1..en, each with its own fixed response), for tests that count
// judge calls: the budget, concurrency and cancels of the call scheduler.

/** `n` evals named e1..en, each graded by `rubric` (YAML: the value of `rubric:`). */
function numberedEvals(n: number, rubric: string): string {
  const evals = Array.from(
    { length: n },
    (_, i) => `
  - name: e${i + 1}
    response: "Answer ${i + 1}."
    rubric:${rubric}`,
  );
  return `evals:${evals.join("")}\n`;
}

/** `n` free-form evals named e1..en, one judge call each. */
export function freeformEvals(n: number): string {
  return numberedEvals(n, ` "Answers the question."`);
}

/** `n` evals of two criteria each. */
export function criteriaEvals(n: number): string {
  return numberedEvals(
    n,
    `
      criteria:
        - { name: accurate, description: "Is accurate." }
        - { name: brief, description: "Is brief." }`,
  );
}
