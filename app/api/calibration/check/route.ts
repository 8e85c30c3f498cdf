import { NextResponse } from "next/server";
import { readEnv } from "../../../../lib/env/read-env";
import { checkAnchors } from "../../../../lib/engine/trust/calibration/check-anchors";
import { createAnthropicJudge } from "../../../../lib/judge/anthropic-judge";
import { priceOf } from "../../../../lib/judge/pricing";
import { suiteWorkers } from "../../../../lib/offthread/suite-workers";
import { CheckAnchorsBody } from "../../../../components/authoring/api-types";
import pkg from "../../../../package.json";
import { createCachedJudge, claimOwner } from "../../../../lib/store/cached-judge";
import { errorResponse, parseJson, withDatabase } from "../../respond";

export const dynamic = "force-dynamic";

/** A claim on a cache key outlives the 60 s call timeout with its retries. */
const CLAIM_LEASE_MS = 5 * 60_000;

// POST { yaml, line?, lines?, maxCostUsd? } -> the editor's "Check anchors":
// the draft's anchors (of the criterion at `line`, or all; as you type, those
// of the criteria an edit's `lines` touch) graded with the server's judge,
// spending at most maxCostUsd. Only the verdicts are kept (the judge cache);
// the key stays on the server. The draft is loaded on a worker thread under a
// time limit, so no text stalls the rest of the server.
export async function POST(request: Request) {
  const body = await parseJson(request, CheckAnchorsBody);
  if (!body.ok) return body.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const { anthropicApiKey, anthropicBaseUrl, judgeModel } = settings.value;
  if (!anthropicApiKey) return errorResponse("unavailable", "The server has no ANTHROPIC_API_KEY, so anchors cannot be checked here. Set it where the dashboard runs, or run `rubric-studio calibrate --config <suite>` where you have a key.");
  const { yaml, line, lines, maxCostUsd } = body.value;
  const file = body.value.file ?? "suite.yaml";
  const loaded = await suiteWorkers().run({ kind: "load", text: yaml, file });
  if (!loaded.ok) return errorResponse(loaded.code, loaded.message);
  const anthropic = createAnthropicJudge({ apiKey: anthropicApiKey, baseURL: anthropicBaseUrl, timeoutMs: 60_000 });
  // Through the judge cache: checking text whose anchors did not change (as
  // you type, or a second click) is answered from stored verdicts, at no cost.
  const db = withDatabase();
  if (!db.ok) return db.response;
  const judge = createCachedJudge({ prisma: db.prisma, inner: anthropic, owner: claimOwner(), reuse: true, leaseMs: CLAIM_LEASE_MS });
  const check = await checkAnchors(
    { text: yaml, file, ...(line !== undefined ? { line } : {}), ...(lines ? { lines } : {}), ...(maxCostUsd !== undefined ? { maxCostUsd } : {}), defaultModel: judgeModel, toolVersion: pkg.version, loaded: loaded.value },
    { judge, now: Date.now, priceOf },
  );
  return NextResponse.json(check);
}
