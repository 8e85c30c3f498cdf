import { readEnv } from "../../../../../lib/env/read-env";
import { createAnthropicJudge } from "../../../../../lib/judge/anthropic-judge";
import { priceOf } from "../../../../../lib/judge/pricing";
import { calibrateStoredSuite } from "../../../../../lib/store/calibrate-suite";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import pkg from "../../../../../package.json";
import { errorResponse, fromResult, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/** Calibrates the suite's newest saved version with the server's judge (the key never leaves the server) and stores it. */
export async function POST(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const { anthropicApiKey, anthropicBaseUrl, judgeModel } = settings.value;
  if (!anthropicApiKey) return errorResponse("unavailable", "The server has no ANTHROPIC_API_KEY, so it cannot ask the judge. Set it where the dashboard runs, or run `rubric-studio calibrate --config <suite> --store` where you have a key.");
  const judge = createAnthropicJudge({ apiKey: anthropicApiKey, baseURL: anthropicBaseUrl, timeoutMs: 60_000 });
  // The saved text came from a browser: it is loaded on a worker thread, under a time limit.
  const loadText = (input: { text: string; file: string }) => suiteWorkers().run({ kind: "load", ...input });
  return fromResult(await calibrateStoredSuite({ prisma: db.prisma, suiteId: id, judge, judgeModel, toolVersion: pkg.version, priceOf, startedBy: "dashboard", loadText }), 201);
}
