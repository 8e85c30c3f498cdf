// A big dataset's items the size of production ones (a long answer, long reasoning: ~15 KB each
// in memory), for the tests that hold a run to a heap limit (test/cli/store-stream.test.ts,
// test/cli/regrade-stream.test.ts).

/** Every third item's answer is wrong, and its judge says so: the hand count of failures. */
export const wrong = (i: number) => i % 3 === 0;
const PADDING = "This answer goes on for a while, as production answers do. ".repeat(100);
/** The judge's reasoning of every verdict. */
export const REASONING =
  "The judge weighs every sentence of the answer against the question. ".repeat(40);

/** Item `i` as a JSON Lines line: its answer says "WRONG" or "RIGHT answer number i". */
export const item = (i: number) =>
  JSON.stringify({
    id: `q${i}`,
    input: `Question ${i}?`,
    expected_output: `${wrong(i) ? "WRONG" : "RIGHT"} answer number ${i}. ${PADDING}`,
  });

/** A suite of one eval whose candidates are the items of items.jsonl, graded by `rubric` (pass at 0.5). */
export const bigSuite = (rubric: string) =>
  [
    "datasets:",
    "  big: { file: items.jsonl }",
    "evals:",
    "  - name: big",
    "    candidates: { dataset: big }",
    `    rubric: "${rubric}"`,
    "    threshold: 0.5",
    "",
  ].join("\n");
