import { describe, expect, it } from "vitest";
import type { EvalResult } from "../../lib/engine/results/report";
import { readStoredResult } from "../../lib/engine/results/stored-result";
import { createResultWriter } from "../../lib/store/result-writer";
import { createRunExport } from "../../lib/store/run-export";
import { createRunStore } from "../../lib/store/run-store";
import { storableDeep } from "../../lib/store/storable";
import { createFakeJudge } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { sampleResults } from "../support/sample-report";
import { createStoredRun } from "../support/stored-run";
import { useTestDatabase } from "../support/test-database";

// A criterion graded by one judge is stored with its reasoning and evidence once (the verdict's
// copy left out), and reads back as graded: through the store's readers (results, the CSV and
// report pages) and through rubric_studio_result in SQL, and a row stored whole by an earlier
// version, next to the new ones, reads the same, to its JSON's key order.

const db = useTestDatabase();

const SUITE = `evals:
  - name: refund policy
    response: "Refunds within 14 days. Call us."
    matrix: { prompts: ["p1", "p2", "p3"] }
    rubric:
      criteria:
        - { name: states the window, description: "Says 14 days." }
        - { name: gives a next step, description: "Says what to do next." }
`;

async function graded(): Promise<EvalResult[]> {
  let call = 0;
  const judge = createFakeJudge(() => {
    call += 1;
    return {
      score: (call % 10) / 10,
      reasoning: `a judge's long reasoning about the answer, verdict ${call}`,
      ...(call % 2 === 0 ? { evidence: "14 days" } : {}),
    };
  });
  const report = await runYaml(SUITE, { judge });
  return [...report.results, ...sampleResults()];
}

const byId = (a: EvalResult, b: EvalResult) => a.id.localeCompare(b.id);

async function storedRun(results: readonly EvalResult[]): Promise<string> {
  const store = createRunStore(db.prisma);
  const runId = await createStoredRun(store, {
    name: "verdict-text",
    yaml: SUITE,
    cells: results.length,
  });
  const writer = createResultWriter({ store, runId, batchSize: 3 });
  for (const result of results) writer.write(result);
  await writer.settled();
  return runId;
}

async function exported(runId: string): Promise<EvalResult[]> {
  const pages: EvalResult[] = [];
  for await (const page of createRunExport(db.prisma).resultPages(runId, 4)) pages.push(...page);
  return pages.sort(byId);
}

describe("a lone verdict's reasoning stored once", () => {
  it("stores it once and reads every result back as graded, beside rows stored whole", async () => {
    const results = await graded();
    // What a reader gets of a result stored whole: its JSON as Postgres keeps it.
    const whole = results.map((r) => readStoredResult(structuredClone(storableDeep(r))));
    const lone = results.flatMap((r) => r.criteria).filter((c) => c.verdicts.length === 1);
    expect(lone.length).toBeGreaterThan(5);

    const compact = await storedRun(results);
    const rows = await db.prisma.$queryRaw<{ key: string; data: EvalResult; bytes: number }[]>`
      SELECT result_key AS key, data, octet_length(data::text) AS bytes FROM eval_results
      WHERE run_id = ${compact}::uuid`;
    // The layout: no lone verdict that repeats its criterion keeps its reasoning, and the documents are smaller.
    const stored = rows
      .flatMap((r) => r.data.criteria)
      .filter((c: EvalResult["criteria"][number]) => c.verdicts.length === 1);
    expect(stored.length).toBe(lone.length);
    const repeated = lone.filter(
      (c) => c.verdicts[0]!.reasoning === c.reasoning && c.verdicts[0]!.evidence === c.evidence,
    );
    expect(repeated.length).toBeGreaterThan(5);
    expect(stored.filter((c) => !("reasoning" in c.verdicts[0]!)).length).toBe(repeated.length);
    // The same results stored whole, as an earlier version did, in another run; and half of the
    // new run's rows replaced by their whole documents: old and new rows side by side.
    const old = await storedRun(results);
    for (const [i, result] of results.entries()) {
      const doc = JSON.stringify(storableDeep(result));
      await db.prisma.$executeRaw`UPDATE eval_results SET data = ${doc}::jsonb
        WHERE result_key = ${result.id} AND (run_id = ${old}::uuid OR (run_id = ${compact}::uuid AND ${i % 2 === 0}))`;
    }

    // The first result (two criteria, one judge) is smaller by its verdicts' reasoning at least.
    const [sizes] = await db.prisma.$queryRaw<{ now: number; before: number }[]>`
      SELECT octet_length(n.data::text) AS now, octet_length(o.data::text) AS before
      FROM eval_results n JOIN eval_results o USING (result_key)
      WHERE n.run_id = ${compact}::uuid AND o.run_id = ${old}::uuid AND result_key = ${results[1]!.id}`;
    const text = results[1]!.criteria.reduce((n, c) => n + c.reasoning.length, 0);
    expect(text).toBeGreaterThan(80);
    expect(sizes!.now).toBeLessThanOrEqual(sizes!.before - text);

    const store = createRunStore(db.prisma);
    for (const runId of [compact, old]) {
      const read = (await store.results(runId)).sort(byId);
      expect(read).toEqual(whole.sort(byId));
      expect(await exported(runId)).toEqual(read);
    }
    // To the byte: report RUN_ID's json of a new row is the old row's.
    expect(JSON.stringify((await exported(compact)).map((r) => r.criteria))).toBe(
      JSON.stringify((await exported(old)).map((r) => r.criteria)),
    );
    // In SQL: every document with its verdicts' text back is the whole one, old rows unchanged.
    const [differ] = await db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM eval_results n JOIN eval_results o USING (result_key)
      WHERE n.run_id = ${compact}::uuid AND o.run_id = ${old}::uuid
        AND (rubric_studio_result(n.data) <> o.data OR rubric_studio_result(o.data) <> o.data)`;
    expect(differ!.n).toBe(0);
  });
});
