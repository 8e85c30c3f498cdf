import { readEnv } from "../../../../../lib/env/read-env";
import { enqueueSuiteRun } from "../../../../../lib/store/enqueue-run";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import { dashboardProviders } from "../../../../../lib/judge/server-providers";
import { RunSuiteBody } from "../../../../../components/authoring/api-types";
import pkg from "../../../../../package.json";
import {
  errorResponse,
  fromResult,
  parseJson,
  withDatabase,
  type IdParams,
} from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * Queues a run of the posted suite text (saved as a version when new, only once it loads); the
 * server's workers grade it with the server's key.
 */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, RunSuiteBody);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  if (!settings.value.databaseUrl)
    return errorResponse("unavailable", "No database URL: start the dashboard with `npm run dev`.");
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok) return errorResponse("unavailable", providers.message);
  // Loaded on a worker thread under a time limit: the text comes from a browser.
  // A providers: block the server does not define refuses the run, located: nothing is queued, no request leaves.
  const loaded = await suiteWorkers().run({
    kind: "load",
    text: body.value.yaml,
    file: "suite.yaml",
    providers: providers.value,
  });
  if (!loaded.ok) return errorResponse(loaded.code, loaded.message);
  const started = await enqueueSuiteRun({
    prisma: db.prisma,
    databaseUrl: settings.value.databaseUrl,
    suiteId: id,
    yaml: body.value.yaml,
    judgeModel: settings.value.judgeModel,
    toolVersion: pkg.version,
    loaded: loaded.value,
    batch: body.value.batch === true,
  });
  return fromResult(started, 201);
}
