import { enqueueSuiteRun } from "../../../../../lib/store/enqueue-run";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import { RunSuiteBody } from "../../../../../components/authoring/api-types";
import pkg from "../../../../../package.json";
import { errorResponse, fromResult, parseJson, type IdParams } from "../../../respond";
import { runSetup } from "../../../run-setup";

export const dynamic = "force-dynamic";

/**
 * Queues a run of the posted suite text (saved as a version when new, only once it loads); the
 * server's workers grade it with the server's key.
 */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, RunSuiteBody);
  if (!body.ok) return body.response;
  const setup = await runSetup();
  if (!setup.ok) return setup.response;
  // Loaded on a worker thread under a time limit: the text comes from a browser.
  // A providers: block the server does not define refuses the run, located: nothing is queued, no request leaves.
  const loaded = await suiteWorkers().run({
    kind: "load",
    text: body.value.yaml,
    file: "suite.yaml",
    providers: setup.providers,
  });
  if (!loaded.ok) return errorResponse(loaded.code, loaded.message);
  const started = await enqueueSuiteRun({
    prisma: setup.prisma,
    databaseUrl: setup.databaseUrl,
    suiteId: id,
    yaml: body.value.yaml,
    judgeModel: setup.judgeModel,
    toolVersion: pkg.version,
    loaded: loaded.value,
    batch: body.value.batch === true,
    // Graded by the server's workers with the server's keys: a cell without one defers, no call.
    hasKey: (name) => setup.providers.keysSet.includes(name),
  });
  return fromResult(started, 201);
}
