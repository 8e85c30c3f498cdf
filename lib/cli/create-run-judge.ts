import type { JudgePort } from "../engine/ports/judge-port";
import type { createProviderSetup } from "../judge/provider-setup";
import { countOutstanding } from "../judge/batch-rounds";
import type { PrismaClient } from "../store/connection";
import type { RunConfig } from "../store/run-store";
import { batchOptions } from "./batch-mode";
import type { CliIo } from "./cli-io";
import { leaseMs, type loadHistory } from "./run-request";

// The judge of one CLI run: each request to the provider its model resolves to (a panel or a
// matrix may mix vendors); with --batch, through Message Batches whose ids are stored with the
// run, for `resume`; with run history, behind the judge cache, so a verdict is paid for once. The
// store's modules come with `history` (loaded only for a run that has one): a plain eval loads
// no database package (test/cli/startup.test.ts).

export function createRunJudge(input: {
  providers: ReturnType<typeof createProviderSetup>;
  config: RunConfig;
  io: CliIo;
  signal: AbortSignal;
  history?: Awaited<ReturnType<typeof loadHistory>> & { prisma: PrismaClient };
  runId?: string;
}): JudgePort {
  const { providers, config, io, history, runId } = input;
  const counted = countOutstanding();
  const batch = config.batch
    ? batchOptions({
        pollSeconds: config.batch.pollSeconds,
        say: (text) => io.stderr.write(text),
        signal: input.signal,
        outstanding: counted.outstanding,
        ...(history && runId
          ? { ledger: history.createBatchLedger({ prisma: history.prisma, runId }) }
          : {}),
      })
    : undefined;
  let judge: JudgePort = providers.createJudge({
    timeoutMs: config.timeoutSeconds * 1000,
    ...(batch ? { batch } : {}),
  });
  if (history) {
    judge = history.createCachedJudge({
      prisma: history.prisma,
      inner: judge,
      runId,
      owner: history.claimOwner(),
      reuse: !config.noCache,
      leaseMs: leaseMs(config.timeoutSeconds),
    });
  }
  return batch ? counted.around(judge) : judge;
}
