import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { flipKindOf, flippedCriteria } from "../../lib/engine/trust/regrade/flip-kind";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { sampleResults } from "../support/sample-report";
import { storeResults } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// What a regrade did to each result, as the flips page counts and lists it
// (SQL in lib/store/regrade-views.ts) and as the editor's preview decides it
// (flipKindOf): the same answer for every kind of change, and a criterion
// whose pass/fail flipped under an unchanged overall verdict is a flip.

const db = useTestDatabase();

const grounded = () => sampleResults().find((r) => r.id === "grounded answer with citations")!;

/** The stored result `id`, with `edit` applied to a copy. */
function variant(id: string, edit: (r: EvalResult) => void = () => {}): EvalResult {
  const r = structuredClone(grounded());
  Object.assign(r, { id, name: id });
  edit(r);
  return r;
}

// "states the change" (0.90, passed) fails once its threshold is raised to 0.95: same score, same status.
const raiseThreshold = (r: EvalResult) => {
  const c = r.criteria.find((c) => c.name === "states the change")!;
  Object.assign(c, { threshold: 0.95, passed: false });
};
const passing = (r: EvalResult) => Object.assign(r, { status: "passed", score: 0.8 });
const PAIRS: {
  id: string;
  now: (id: string) => EvalResult;
  before?: (id: string) => EvalResult;
  kind: string;
  criteria: string[];
}[] = [
  { id: "same", now: (id) => variant(id), kind: "unchanged", criteria: [] },
  {
    id: "threshold",
    now: (id) => variant(id, raiseThreshold),
    kind: "criteria",
    criteria: ["states the change"],
  },
  {
    id: "threshold and score",
    now: (id) => variant(id, (r) => (raiseThreshold(r), (r.score = 0.25))),
    kind: "criteria",
    criteria: ["states the change"],
  },
  { id: "score", now: (id) => variant(id, (r) => (r.score = 0.35)), kind: "moved", criteria: [] },
  {
    id: "passes",
    now: (id) => variant(id, (r) => Object.assign(r, { status: "passed", score: 0.8 })),
    kind: "now_pass",
    criteria: [],
  },
  {
    id: "judge error",
    now: (id) => variant(id, (r) => Object.assign(r, { status: "judge_error", score: null })),
    kind: "moved",
    criteria: [],
  },
  // Past --max-cost: not graded, so neither a pass nor a fail (and no regression in the gate).
  {
    id: "budget",
    before: (id) => variant(id, passing),
    now: (id) =>
      variant(id, (r) =>
        Object.assign(r, { status: "skipped", skipKind: "budget", score: null, criteria: [] }),
      ),
    kind: "not_graded",
    criteria: [],
  },
  {
    id: "was deferred",
    before: (id) => variant(id, (r) => Object.assign(r, { status: "deferred", score: null })),
    now: (id) => variant(id, passing),
    kind: "not_graded",
    criteria: [],
  },
];

describe("a regrade's flips, on the flips page and in the editor's preview", () => {
  it("counts and lists a criterion that flipped under an unchanged verdict, as flipKindOf does", async () => {
    const before = PAIRS.map((p) => (p.before ?? variant)(p.id));
    const now = PAIRS.map((p) => p.now(p.id));
    for (const [i, p] of PAIRS.entries()) {
      expect(flipKindOf({ now: now[i]!, before: before[i]! }), p.id).toBe(p.kind);
      expect(flippedCriteria({ now: now[i]!, before: before[i]! }), p.id).toEqual(p.criteria);
    }

    const source = await storeResults({ prisma: db.prisma, results: before });
    const runId = await storeResults({ prisma: db.prisma, results: now, regradeOf: source });
    const views = createRegradeViews(db.prisma);
    expect(await views.flipCounts({ runId })).toEqual({
      nowFail: 0,
      nowPass: 1,
      criteria: 2,
      notGraded: 2,
      moved: 2,
      unchanged: 1,
    });
    const { pairs } = await views.flipPage({ runId });
    // The result's own flips first, then a criterion's, then the not graded, then the moves, largest first.
    expect(pairs.map((p) => [p.current.id, p.kind, p.flippedCriteria])).toEqual([
      ["passes", "now_pass", []],
      ["threshold and score", "criteria", ["states the change"]],
      ["threshold", "criteria", ["states the change"]],
      ["budget", "not_graded", []],
      ["was deferred", "not_graded", []],
      ["judge error", "moved", []],
      ["score", "moved", []],
    ]);
  });
});
