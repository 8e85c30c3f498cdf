import { describe, expect, it } from "vitest";
import { always, createFakeJudge } from "../support/fake-judge";
import { DEFAULT_MODEL, suiteFrom } from "../support/run-yaml";
import { planSuite } from "../../lib/engine/plan/plan-suite";
import type { PlannedCell } from "../../lib/engine/grade/planned-cell";
import type { EvalResult } from "../../lib/engine/results/report";
import { buildReport } from "../../lib/engine/run-suite";
import { cellWindow, streamSuite } from "../../lib/engine/stream-suite";

// Issue 20: the runner pulls planned cells from a stream and holds only a
// window of them (a small multiple of the concurrency) between pulling one and
// handing its result over; results leave in plan order as they finish, and the
// figures folded on the way equal those of a report built over all of them.

const ITEMS = 400;
const suite = suiteFrom(
  [
    "datasets:",
    "  qs:",
    "    items:",
    ...Array.from(
      { length: ITEMS },
      (_, i) => `      - { id: q${i}, expected_output: "Answer ${i}." }`,
    ),
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: qs }",
    "    rubric:",
    "      criteria:",
    '        - { name: correct, description: "Correct." }',
    '        - { name: polite, description: "Polite." }',
  ].join("\n"),
);
const price = { inputPerMTok: 3, outputPerMTok: 15 };

describe("streamSuite", () => {
  it("holds at most a window of planned cells between pulling one and handing its result over", async () => {
    const cells = planSuite({ suite, defaultModel: DEFAULT_MODEL });
    expect(cells).toHaveLength(ITEMS);
    let pulled = 0;
    let handed = 0;
    let most = 0;
    // A lazy planner: each cell is made when the runner asks for it.
    async function* lazily(): AsyncGenerator<PlannedCell> {
      for (const cell of cells) {
        pulled++;
        most = Math.max(most, pulled - handed);
        yield cell;
      }
    }
    const concurrency = 4;
    const results: EvalResult[] = [];
    const head = await streamSuite(
      {
        suite,
        defaultModel: DEFAULT_MODEL,
        concurrency,
        toolVersion: "0.0.0-test",
        source: { cells: ITEMS, judgeCalls: ITEMS * 2, each: lazily() },
      },
      {
        judge: createFakeJudge(
          always({
            score: 0.8,
            delayMs: 1,
            usage: { input: 120, output: 30, cacheRead: 7, cacheWrite: 0 },
          }),
        ),
        now: Date.now,
        priceOf: () => price,
        onEvent: (event) => {
          if (event.type !== "result") return;
          handed++;
          results.push(event.result);
        },
      },
    );
    expect(pulled).toBe(ITEMS);
    expect(handed).toBe(ITEMS);
    // The window is 16 cells here: far fewer than the 400 planned.
    expect(most).toBeLessThanOrEqual(cellWindow(concurrency));
    expect(cellWindow(concurrency)).toBe(16);
    // In plan order, whatever order they finished in.
    expect(results.map((r) => r.id)).toEqual(cells.map((c) => c.id));

    // The figures folded as results went equal a report built over all of them.
    const whole = buildReport({
      results,
      suite,
      toolVersion: "0.0.0-test",
      startedAt: Date.parse(head.startedAt),
      finishedAt: Date.parse(head.finishedAt),
      priceOf: () => price,
    });
    expect(head.summary).toEqual(whole.summary);
    expect(head.summary).toMatchObject({ total: ITEMS, passed: ITEMS, judgeCalls: ITEMS * 2 });
  });
});
