import { enqueueRegrade } from "../../../../../lib/store/regrade-run";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import { RegradeBody } from "../../../../../components/results/regrade-body";
import pkg from "../../../../../package.json";
import { fromResult, parseJson, type IdParams } from "../../../respond";
import { runSetup } from "../../../run-setup";

export const dynamic = "force-dynamic";

/**
 * Re-grade with…: queues a regrade of a finished run (its stored candidates, no generation or agent
 * call) with a stored version of its suite and optionally another judge; the server's workers grade
 * it as any dashboard run.
 */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, RegradeBody);
  if (!body.ok) return body.response;
  const setup = await runSetup();
  if (!setup.ok) return setup.response;
  const started = await enqueueRegrade({
    prisma: setup.prisma,
    databaseUrl: setup.databaseUrl,
    sourceRunId: id,
    ...(body.value.versionId ? { versionId: body.value.versionId } : {}),
    ...(body.value.judge ? { judge: body.value.judge } : {}),
    judgeModel: setup.judgeModel,
    toolVersion: pkg.version,
    // A stored version is text a browser once sent: loaded on a worker thread, under a time limit.
    load: ({ text, file }) =>
      suiteWorkers().run({ kind: "load", text, file, providers: setup.providers }),
    // Graded by the server's workers with the server's keys: a cell without one defers, no call.
    hasKey: (name) => setup.providers.keysSet.includes(name),
  });
  return fromResult(started, 201);
}
