import { beforeAll, describe, expect, it } from "vitest";
import { createRegradeViews, FLIPS_PAGE_SIZE } from "../../lib/store/regrade-views";
import { createRunStore } from "../../lib/store/run-store";
import { useTestDatabase } from "../support/test-database";

// The flips page of a regrade, paged by keyset (no OFFSET): walked forwards by each page's next
// cursor and backwards by each page's previous one, its pages list every change once, flips
// first, then the largest score move, then by name, and each page knows where it starts.

const db = useTestDatabase();
const ROWS = 95;
let runId: string;
/** The changes in the page's order, computed here from what was stored. */
let expected: string[];

beforeAll(async () => {
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "flips.yaml", yaml: "evals: []\n" });
  const config = {
    file: "flips.yaml",
    toolVersion: "0.1.0",
    judgeModel: "claude-sonnet-4-6",
    concurrency: 4,
    timeoutSeconds: 60,
  };
  const sourceId = await store.createRun({
    ...version,
    startedBy: "cli",
    config,
    totalCells: ROWS,
  });
  runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: { ...config, regradeOf: sourceId },
    totalCells: ROWS,
  });
  // Row i: passed at 0.8 in the source; in the regrade every 3rd fails (a flip), every 3rd + 1
  // moves by a step of i % 7 (never 0), the rest are unchanged.
  const row = (run: string, i: number, status: string, score: number) => ({
    runId: run,
    resultKey: `eval ${String(i).padStart(3, "0")}`,
    evalName: `eval ${String(i).padStart(3, "0")}`,
    name: `eval ${String(i).padStart(3, "0")}`,
    status,
    score,
    threshold: 0.5,
    reason: "r",
    costUsd: 0,
    judgeCalls: 1,
    latencyMs: 1,
    data: { id: `eval ${i}`, name: `eval ${String(i).padStart(3, "0")}`, status, score },
  });
  const changes: { name: string; flip: boolean; move: number }[] = [];
  const regraded = Array.from({ length: ROWS }, (_, i) => {
    const name = `eval ${String(i).padStart(3, "0")}`;
    if (i % 3 === 0) {
      changes.push({ name, flip: true, move: Math.abs(0.3 - 0.8) });
      return row(runId, i, "failed", 0.3);
    }
    if (i % 3 === 1) {
      const score = 0.8 + ((i % 7) + 1) / 100;
      changes.push({ name, flip: false, move: Math.abs(score - 0.8) });
      return row(runId, i, "passed", score);
    }
    return row(runId, i, "passed", 0.8);
  });
  await db.prisma.evalResultRow.createMany({
    data: [...Array.from({ length: ROWS }, (_, i) => row(sourceId, i, "passed", 0.8)), ...regraded],
  });
  expected = changes
    .sort((a, b) =>
      a.flip !== b.flip
        ? Number(b.flip) - Number(a.flip)
        : a.move !== b.move
          ? b.move - a.move
          : a.name < b.name
            ? -1
            : 1,
    )
    .map((c) => c.name);
}, 60_000);

describe("flipPage: a regrade's changes by keyset", () => {
  it("lists every change once in the page's order, forwards and backwards", async () => {
    const views = createRegradeViews(db.prisma);
    const counts = await views.flipCounts({ runId });
    expect(counts.nowFail + counts.moved).toBe(expected.length);

    const forwards: string[] = [];
    let after: string | undefined;
    let last: Awaited<ReturnType<typeof views.flipPage>>;
    do {
      last = await views.flipPage({ runId, ...(after ? { after } : {}) });
      expect(last.firstIndex).toBe(forwards.length);
      forwards.push(...last.pairs.map((p) => p.current.name));
      after = last.nextCursor ?? undefined;
    } while (after);
    expect(forwards).toEqual(expected);
    expect(last.pairs.length).toBeLessThanOrEqual(FLIPS_PAGE_SIZE);

    // Back from the last page by each page's previous cursor: the same pages, in reverse.
    const backwards: string[][] = [last.pairs.map((p) => p.current.name)];
    let before = last.prevCursor;
    while (before) {
      const page = await views.flipPage({ runId, before });
      expect(page.firstIndex).toBe(expected.length - backwards.flat().length - page.pairs.length);
      backwards.unshift(page.pairs.map((p) => p.current.name));
      before = page.prevCursor;
    }
    expect(backwards.flat()).toEqual(expected);
    expect(backwards[0]).toHaveLength(FLIPS_PAGE_SIZE);

    // The kinds: flips first.
    const first = await views.flipPage({ runId });
    expect(first.pairs.every((p) => p.kind === "now_fail")).toBe(true);
    expect(first.prevCursor).toBeNull();
    // A malformed cursor opens the first page.
    expect((await views.flipPage({ runId, after: "bm90LWEtY3Vyc29y" })).firstIndex).toBe(0);
  });
});
