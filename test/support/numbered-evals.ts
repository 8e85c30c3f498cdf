// Suites of `n` numbered evals (e1..en, each with its own fixed response), for tests that count
// judge calls: the budget, concurrency and cancels of the call scheduler.

/** `n` free-form evals named e1..en, one judge call each. */
export function freeformEvals(n: number): string {
  const evals = Array.from(
    { length: n },
    (_, i) => `
  - name: e${i + 1}
    response: "Answer ${i + 1}."
    rubric: "Answers the question."`,
  );
  return `evals:${evals.join("")}\n`;
}

/** `n` evals of two criteria each. */
export function criteriaEvals(n: number): string {
  const evals = Array.from(
    { length: n },
    (_, i) => `
  - name: e${i + 1}
    response: "Answer ${i + 1}."
    rubric:
      criteria:
        - { name: accurate, description: "Is accurate." }
        - { name: brief, description: "Is brief." }`,
  );
  return `evals:${evals.join("")}\n`;
}
