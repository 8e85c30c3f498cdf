import { NextResponse } from "next/server";
import { readEnv } from "../../../../lib/env/read-env";
import { checkAnchors } from "../../../../lib/engine/calibration/check-anchors";
import { createAnthropicJudge } from "../../../../lib/judge/anthropic-judge";
import { priceOf } from "../../../../lib/judge/pricing";
import { suiteWorkers } from "../../../../lib/offthread/suite-workers";
import { CheckAnchorsBody } from "../../../../components/authoring/api-types";
import pkg from "../../../../package.json";
import { errorResponse, parseJson } from "../../respond";

export const dynamic = "force-dynamic";

// POST { yaml, line? } -> the editor's "Check anchors": the draft's anchors
// (of the criterion at `line`, or all) graded with the server's judge. Nothing
// is stored; the key stays on the server. The draft is loaded on a worker
// thread under a time limit, so no text stalls the rest of the server.
export async function POST(request: Request) {
  const body = await parseJson(request, CheckAnchorsBody);
  if (!body.ok) return body.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const { anthropicApiKey, anthropicBaseUrl, judgeModel } = settings.value;
  if (!anthropicApiKey) return errorResponse("unavailable", "The server has no ANTHROPIC_API_KEY, so anchors cannot be checked here. Set it where the dashboard runs, or run `rubric-studio calibrate --config <suite>` where you have a key.");
  const file = body.value.file ?? "suite.yaml";
  const loaded = await suiteWorkers().run({ kind: "load", text: body.value.yaml, file });
  if (!loaded.ok) return errorResponse(loaded.code, loaded.message);
  const judge = createAnthropicJudge({ apiKey: anthropicApiKey, baseURL: anthropicBaseUrl, timeoutMs: 60_000 });
  const check = await checkAnchors(
    { text: body.value.yaml, file, ...(body.value.line !== undefined ? { line: body.value.line } : {}), defaultModel: judgeModel, toolVersion: pkg.version, loaded: loaded.value },
    { judge, now: Date.now, priceOf },
  );
  return NextResponse.json(check);
}
