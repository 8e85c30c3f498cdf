import { describe, expect, it, onTestFinished } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { csvHeader, csvResultLine } from "../../lib/report/csv-rows";
import { adapterFor, poolOf } from "../../lib/store/connection";
import { PrismaClient } from "../../lib/store/generated/client";
import { saveResultBatch } from "../../lib/store/result-batch";
import { createResultWriter } from "../../lib/store/result-writer";
import { createRunExport } from "../../lib/store/run-export";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunStore, type RunStore } from "../../lib/store/run-store";
import { createRunViews } from "../../lib/store/run-views";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { sampleResults } from "../support/sample-report";
import { createStoredRun } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// What `eval --store` writes through the result writer (batches in one statement, two at once)
// reads back exactly as the results written one by one through saveResult do: the run page's
// rows and counts, the CSV download, `report RUN_ID`'s results, resume's skip set, and the
// criterion rows, for a run of varied results (criteria with and without evidence, skipped and
// deferred criteria, judge errors, pairwise and review results, a NUL a model wrote).

const db = useTestDatabase();

const SUITE = `evals:
  - name: refund policy
    response: "Refunds within 14 days. Call us."
    matrix: { prompts: ["p1", "p2", "p3", "p4", "p5", "p6", "p7"] }
    rubric:
      threshold: 0.7
      criteria:
        - { name: states the window, description: "Says 14 days.", required: true }
        - { name: gives a next step, description: "Says what to do next." }
        - { name: stays polite, description: "No rudeness.", guard: true }
  - name: release notes
    response: "Version 2.3 adds SSO."
    matrix: { prompts: ["a", "b", "c", "d", "e"] }
    rubric:
      criteria:
        - { name: states the version, description: "Names 2.3." }
        - { name: invents no figures, description: "No made-up numbers." }
`;

async function gradedResults(): Promise<EvalResult[]> {
  let call = 0;
  const judge = createFakeJudge(() => {
    call += 1;
    if (call % 11 === 0)
      return { error: "malformed" as const, message: "the judge wrote no verdict" };
    return {
      score: (call % 10) / 10,
      reasoning: `verdict ${call}${call % 7 === 0 ? " with a NUL \u0000 inside" : ""}`,
      ...(call % 3 === 0 ? { evidence: "14 days" } : {}),
    };
  });
  const report = await runYaml(SUITE, { judge });
  return [...report.results, ...sampleResults()];
}

function newRun(store: RunStore, cells: number): Promise<string> {
  return createStoredRun(store, { name: "writer-round-trip", yaml: SUITE, cells });
}

/** Everything the readers show of a run, without what differs between two runs (ids, times). */
async function whatReadersSee(runId: string) {
  const store = createRunStore(db.prisma);
  const exporter = createRunExport(db.prisma);
  const criteria = await exporter.criterionNames(runId);
  const csv = [csvHeader(criteria)];
  for await (const page of exporter.resultPages(runId, 4))
    for (const result of page) csv.push(csvResultLine(result, criteria));
  const page = await createRunQueries(db.prisma).runResultsPage({ runId, pageSize: 100 });
  const overview = await createRunViews(db.prisma).runOverview(runId);
  const criterionRows = await db.prisma.criterionResultRow.findMany({
    where: { runId },
    select: {
      evalResult: { select: { resultKey: true } },
      name: true,
      status: true,
      score: true,
      passed: true,
      threshold: true,
      weight: true,
      required: true,
      guard: true,
      gates: true,
    },
  });
  const key = (r: (typeof criterionRows)[number]) => `${r.evalResult.resultKey}\u0000${r.name}`;
  return {
    results: (await store.results(runId)).sort((a, b) => a.id.localeCompare(b.id)),
    csv,
    rows: page.rows.map(({ id: _id, createdAt: _at, ...row }) => row),
    total: page.total,
    counts: overview && { results: overview.results, ...overview.counts },
    skip: [...(await store.resultKeys(runId))].sort(),
    criterionRows: criterionRows.sort((a, b) => key(a).localeCompare(key(b))),
  };
}

describe("result writer", () => {
  it("stores a run that reads back as the one written result by result", async () => {
    const results = await gradedResults();
    expect(results.length).toBeGreaterThan(15);
    const store = createRunStore(db.prisma);

    const oneByOne = await newRun(store, results.length);
    for (const result of results) await store.saveResult(oneByOne, result);

    const batched = await newRun(store, results.length);
    // Small batches, so that several are written, two at once.
    const writer = createResultWriter({ store, runId: batched, batchSize: 4 });
    for (const result of results) {
      await writer.room();
      writer.write(result);
    }
    await writer.settled();

    const expected = await whatReadersSee(oneByOne);
    const seen = await whatReadersSee(batched);
    expect(seen.skip).toEqual(results.map((r) => r.id).sort());
    expect(seen.criterionRows.length).toBe(results.reduce((n, r) => n + r.criteria.length, 0));
    expect(seen.results.some((r) => r.criteria.some((c) => c.evidence === "14 days"))).toBe(true);
    expect(seen.results.some((r) => JSON.stringify(r).includes("\uFFFD"))).toBe(true);
    expect(seen).toEqual(expected);
  });

  it("writes the same through a Prisma client that has no pool of its own (no poolOf)", async () => {
    const results = await gradedResults();
    const store = createRunStore(db.prisma);
    const viaPool = await newRun(store, results.length);
    await saveResultBatch(db.prisma, { runId: viaPool, results });
    const prisma = new PrismaClient({ adapter: adapterFor(db.url, { max: 1 }) });
    onTestFinished(() => prisma.$disconnect());
    expect(poolOf(prisma)).toBeUndefined();
    const viaPrisma = await newRun(store, results.length);
    await saveResultBatch(prisma, { runId: viaPrisma, results });
    expect(await whatReadersSee(viaPrisma)).toEqual(await whatReadersSee(viaPool));
  });

  it("writes a result again in place, its criteria replaced, never doubled", async () => {
    const results = (await gradedResults()).slice(0, 12);
    const store = createRunStore(db.prisma);
    const runId = await newRun(store, results.length);
    const writer = createResultWriter({ store, runId, batchSize: 5 });
    for (const result of results) writer.write(result);
    // The same keys again, graded differently: the later one is what stays.
    const regraded = results.map((r) => ({ ...r, reason: `again: ${r.reason}` }));
    for (const result of regraded) writer.write(result);
    await writer.settled();

    const stored = await store.results(runId);
    expect(stored.map((r) => r.reason).sort()).toEqual(regraded.map((r) => r.reason).sort());
    expect(await db.prisma.criterionResultRow.count({ where: { runId } })).toBe(
      results.reduce((n, r) => n + r.criteria.length, 0),
    );
  });

  it("writes the next batch while the database is still writing one", async () => {
    const started: number[] = [];
    const release: (() => void)[] = [];
    const store = {
      saveResult: () => Promise.resolve(),
      saveResults: (_runId: string, batch: readonly EvalResult[]) => {
        started.push(batch.length);
        return new Promise<void>((resolve) => release.push(resolve));
      },
    } as unknown as RunStore;
    const results = (await gradedResults()).slice(0, 9);
    const writer = createResultWriter({ store, runId: "run", batchSize: 3 });
    for (const result of results) writer.write(result);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Two batches are with the database, neither finished; the third waits for one of them.
    expect(started).toEqual([3, 3]);
    release.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual([3, 3, 3]);
    for (const done of release.splice(0)) done();
    await writer.settled();
  });

  it("holds back a batch whose result key the batch in flight is writing", async () => {
    const started: string[][] = [];
    const release: (() => void)[] = [];
    const store = {
      saveResult: () => Promise.resolve(),
      saveResults: (_runId: string, batch: readonly EvalResult[]) => {
        started.push(batch.map((r) => r.reason));
        return new Promise<void>((resolve) => release.push(resolve));
      },
    } as unknown as RunStore;
    const [first, second] = (await gradedResults()).slice(0, 2);
    const writer = createResultWriter({ store, runId: "run", batchSize: 2 });
    writer.write(first!);
    writer.write(second!);
    writer.write({ ...first!, reason: "later" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual([[first!.reason, second!.reason]]);
    release.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started.at(-1)).toEqual(["later"]);
    for (const done of release.splice(0)) done();
    await writer.settled();
  });
});
