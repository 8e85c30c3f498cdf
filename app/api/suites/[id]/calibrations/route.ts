import { readEnv } from "../../../../../lib/env/read-env";
import { dashboardProviders, serverProviderSetup } from "../../../../../lib/judge/server-providers";
import { calibrateStoredSuite } from "../../../../../lib/store/calibrate-suite";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import pkg from "../../../../../package.json";
import { errorResponse, fromResult, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * Calibrates the suite's newest saved version with the server's providers, as
 * the Run button's runs are judged (keys never leave the server; a judge model
 * whose provider has no key here defers), and stores it.
 */
export async function POST(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok) return errorResponse("unavailable", providers.message);
  const setup = serverProviderSetup({
    settings: settings.value,
    env: process.env,
    providers: providers.value.providers,
  });
  // The saved text came from a browser: it is loaded on a worker thread, under a time limit, and
  // its providers: block checked against the server's.
  const loadText = (input: { text: string; file: string }) =>
    suiteWorkers().run({ kind: "load", ...input, providers: providers.value });
  return fromResult(
    await calibrateStoredSuite({
      prisma: db.prisma,
      suiteId: id,
      judge: setup.createJudge({ timeoutMs: 60_000 }),
      judgeModel: settings.value.judgeModel,
      toolVersion: pkg.version,
      priceOf: setup.priceOf,
      resolveModel: setup.resolve,
      secrets: setup.secrets,
      startedBy: "dashboard",
      loadText,
    }),
    201,
  );
}
