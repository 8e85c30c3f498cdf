import { describe, expect, it } from "vitest";
import type { EvalResult, EvalStatus, Report } from "../../lib/engine/results/report";
import { compareToBaseline, gradedChangeOf } from "../../lib/engine/trust/compare-baseline";
import { createRunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { sampleResults } from "../support/sample-report";
import { storeResults } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// The History page compares two stored runs in SQL, reading neither whole (issue 20); the CLI's
// `--baseline` gate compares them in the engine (compareToBaseline). On the same stored pair both
// must count the same: newly failing, newly passing, regressed, now graded, no longer graded, not
// in the earlier run; and the rows the page shows are the engine's deltas, the worst first.

const db = useTestDatabase();
const MAX_DROP = 0.05;

type Side = [EvalStatus, number | null] | undefined;

// Each key: its result in the earlier run and in the later one (undefined: not in that run).
const PAIRS: Record<string, [Side, Side]> = {
  "passed → failed": [
    ["passed", 0.9],
    ["failed", 0.2],
  ],
  "passed → judge_error": [
    ["passed", 0.8],
    ["judge_error", null],
  ],
  "failed → passed": [
    ["failed", 0.3],
    ["passed", 0.9],
  ],
  "judge_error → passed": [
    ["judge_error", null],
    ["passed", 0.7],
  ],
  "deferred → passed": [
    ["deferred", null],
    ["passed", 0.9],
  ],
  "deferred → failed": [
    ["deferred", null],
    ["failed", 0.1],
  ],
  "passed → skipped": [
    ["passed", 0.9],
    ["skipped", null],
  ],
  "failed → deferred": [
    ["failed", 0.2],
    ["deferred", null],
  ],
  "skipped → deferred": [
    ["skipped", null],
    ["deferred", null],
  ],
  "passed, dropped 0.2": [
    ["passed", 0.95],
    ["passed", 0.75],
  ],
  "passed, dropped exactly the bound": [
    ["passed", 0.75],
    ["passed", 0.7],
  ],
  "failed, dropped 0.1": [
    ["failed", 0.4],
    ["failed", 0.3],
  ],
  "passed, rose 0.1": [
    ["passed", 0.8],
    ["passed", 0.9],
  ],
  "passed, unchanged": [
    ["passed", 0.9],
    ["passed", 0.9],
  ],
  "failed → judge_error": [
    ["failed", 0.3],
    ["judge_error", null],
  ],
  "new, passed": [undefined, ["passed", 0.9]],
  "new, failed": [undefined, ["failed", 0.1]],
  "new, deferred": [undefined, ["deferred", null]],
  gone: [["passed", 0.9], undefined],
};

function resultOf(id: string, [status, score]: [EvalStatus, number | null]): EvalResult {
  const template = sampleResults()[0]!;
  return {
    ...template,
    id,
    name: id,
    status,
    score,
    display: score === null ? "—" : score.toFixed(2),
    ...(status === "skipped" ? { skipKind: "budget" as const } : {}),
  };
}

async function storedPair() {
  const side = (i: 0 | 1) =>
    Object.entries(PAIRS).flatMap(([id, pair]) => (pair[i] ? [resultOf(id, pair[i])] : []));
  const baseRunId = await storeResults({ prisma: db.prisma, results: side(0) });
  const headRunId = await storeResults({ prisma: db.prisma, results: side(1) });
  return { baseRunId, headRunId };
}

/** What `eval --baseline` counts: the engine over both runs' stored results. */
async function engineOf(pair: { baseRunId: string; headRunId: string }) {
  const store = createRunStore(db.prisma);
  const engine = compareToBaseline({
    report: { results: await store.results(pair.headRunId) } as Report,
    baseline: await store.results(pair.baseRunId),
    baselineRunId: pair.baseRunId,
    maxDrop: MAX_DROP,
  });
  const graded = (kind: string) => engine.deltas.filter((d) => gradedChangeOf(d) === kind).length;
  return { ...engine, nowGraded: graded("now_graded"), noLongerGraded: graded("no_longer_graded") };
}

describe("History's comparison of two stored runs", () => {
  it("counts as the --baseline gate does, over every result, showing only the worst rows", async () => {
    const pair = await storedPair();
    const engine = await engineOf(pair);
    const views = createRunViews(db.prisma);
    const page = (await views.compareRuns({ ...pair, maxDrop: MAX_DROP, rows: 5 }))!;

    const counts = (c: typeof engine) => ({
      newlyFailing: c.newlyFailing,
      newlyPassing: c.newlyPassing,
      regressions: c.regressions,
      nowGraded: c.nowGraded,
      noLongerGraded: c.noLongerGraded,
      unmatched: c.unmatched,
    });
    expect(counts(page)).toEqual(counts(engine));
    // What a person reads on the page, spelt out.
    expect(counts(page)).toEqual({
      newlyFailing: 2,
      newlyPassing: 2,
      regressions: 4,
      nowGraded: 2,
      noLongerGraded: 2,
      unmatched: 3,
    });
    expect(page.compared).toBe(engine.deltas.length);
    expect(page.compared).toBe(18);

    // The first five rows in the page's order: newly failing, newly passing, regressed (by drop).
    expect(page.deltas.map((d) => d.id)).toEqual([
      "passed → failed",
      "passed → judge_error",
      "failed → passed",
      "judge_error → passed",
      "passed, dropped 0.2",
    ]);
    const byId = new Map(engine.deltas.map((d) => [d.id, d]));
    for (const d of page.deltas) expect(d).toEqual(byId.get(d.id));
  });

  it("lists every row in the page's order when they fit", async () => {
    const pair = await storedPair();
    const engine = await engineOf(pair);
    const page = (await createRunViews(db.prisma).compareRuns({ ...pair, maxDrop: MAX_DROP }))!;
    expect(page.deltas).toHaveLength(18);
    expect(new Set(page.deltas.map((d) => d.id))).toEqual(new Set(engine.deltas.map((d) => d.id)));
    const ids = page.deltas.map((d) => d.id);
    // Graded in one run only after every regression; unchanged results last.
    expect(ids.slice(6, 10).sort()).toEqual(
      ["deferred → failed", "deferred → passed", "failed → deferred", "passed → skipped"].sort(),
    );
    expect(ids.indexOf("passed, unchanged")).toBeGreaterThan(9);
  });

  it("answers nothing for a malformed run id", async () => {
    const views = createRunViews(db.prisma);
    expect(
      await views.compareRuns({ baseRunId: "x", headRunId: "1; DROP TABLE runs", maxDrop: 0 }),
    ).toBeUndefined();
  });
});
