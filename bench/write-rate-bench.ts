import { loadavg } from "node:os";
import type { PrismaClient } from "../lib/store/connection";
import { createResultWriter } from "../lib/store/result-writer";
import { createRunStore } from "../lib/store/run-store";
import { createRandom, JUDGE_MODELS, syntheticResult } from "./synthetic-results";

// `npm run bench:store -- --big-run N --writes W`: the first part, the rate at which a run's
// results are written (big-run-bench.ts runs it before the run page's figures).

/** Distinct synthetic results generated at most; a larger count writes them again under new keys. */
const DISTINCT_WRITES = 10_000;

/**
 * Results a second written as a CLI run writes them (createResultWriter: batches of what finished
 * while the batches in flight were written), `count` synthetic results of 3 criteria handed over as
 * fast as the writer takes them, with the CPU each cost this process (with --pglite, the database
 * too) and the server (`serverCpuMs`, a throwaway Postgres): what the rate would be on idle cores.
 */
export async function writeRate(
  prisma: PrismaClient,
  input: { count: number; serverCpuMs?: () => number | undefined },
): Promise<void> {
  const { count } = input;
  const store = createRunStore(prisma);
  const version = await store.saveSuiteVersion({ name: "writes.yaml", yaml: "# bench: writes\n" });
  const runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "writes.yaml",
      toolVersion: "0.1.0",
      judgeModel: JUDGE_MODELS[0]!,
      concurrency: 64,
      timeoutSeconds: 60,
    },
    totalCells: count,
  });
  const random = createRandom(11);
  const distinct = Array.from({ length: Math.min(count, DISTINCT_WRITES) }, (_, i) =>
    syntheticResult({
      evalIndex: Math.floor(i / JUDGE_MODELS.length),
      model: JUDGE_MODELS[i % JUDGE_MODELS.length]!,
      criteria: 3,
      drift: 0,
      random,
    }),
  );
  const writer = createResultWriter({ store, runId });
  const serverBefore = input.serverCpuMs?.();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let waited = 0;
  for (let i = 0; i < count; i++) {
    const before = performance.now();
    await writer.room();
    waited += performance.now() - before;
    const result = distinct[i % distinct.length]!;
    writer.write(i < distinct.length ? result : { ...result, id: `${result.id} #${i}` });
  }
  await writer.settled();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = input.serverCpuMs?.();
  const stored = await prisma.evalResultRow.count({ where: { runId } });
  if (stored !== count) throw new Error(`the writer stored ${stored} of ${count} results`);
  // Bytes stored per result: both tables whole (heap, TOAST, indexes), as this run is the only one.
  const [size] = await prisma.$queryRaw<{ bytes: number }[]>`
    SELECT (pg_total_relation_size('eval_results') + pg_total_relation_size('criterion_results'))::float8 AS bytes`;
  const perResult = (cpuMs: number) => `${(cpuMs / count).toFixed(3)} ms`;
  const server =
    serverBefore !== undefined && serverAfter !== undefined
      ? `, the server ${perResult(serverAfter - serverBefore)}`
      : "";
  console.log(
    `  writes: ${count.toLocaleString("en-US")} results (3 criteria each) in ${(ms / 1000).toFixed(1)} s = ${Math.round(count / (ms / 1000)).toLocaleString("en-US")} results/s, back-pressure waits ${(waited / 1000).toFixed(1)} s; CPU per result: this process ${perResult((cpu.user + cpu.system) / 1000)}${server}; ${Math.round(size!.bytes / count).toLocaleString("en-US")} bytes stored per result; load average ${loadavg()[0]!.toFixed(2)}`,
  );
}
