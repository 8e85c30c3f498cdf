import { NextResponse } from "next/server";
import { readEnv } from "../../../../lib/env/read-env";
import { checkAnchors } from "../../../../lib/engine/check-anchors";
import { createRedactor } from "../../../../lib/engine/results/redact-values";
import { dashboardProviders, serverProviderSetup } from "../../../../lib/judge/server-providers";
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
// of the criteria an edit's `lines` touch) graded with the server's providers
// as the Run button's runs are (a judge model whose provider has no key here
// defers, with the reason), spending at most maxCostUsd. Only the verdicts
// are kept (the judge cache); keys stay on the server. The draft is loaded on
// a worker thread under a time limit, so no text stalls the rest of the server.
export async function POST(request: Request) {
  const body = await parseJson(request, CheckAnchorsBody);
  if (!body.ok) return body.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok) return errorResponse("unavailable", providers.message);
  const { yaml, line, lines, maxCostUsd } = body.value;
  const file = body.value.file ?? "suite.yaml";
  // A providers: block the server does not define is refused, located: no request leaves.
  // Loaded, and its anchors located, on a worker thread: both take seconds for a large suite.
  const read = await suiteWorkers().run({
    kind: "anchors",
    text: yaml,
    file,
    providers: providers.value,
  });
  if (!read.ok) return errorResponse(read.code, read.message);
  const setup = serverProviderSetup({
    settings: settings.value,
    env: process.env,
    providers: providers.value.providers,
  });
  // Through the judge cache: checking text whose anchors did not change (as
  // you type, or a second click) is answered from stored verdicts, at no cost.
  const db = withDatabase();
  if (!db.ok) return db.response;
  const judge = createCachedJudge({
    prisma: db.prisma,
    inner: setup.createJudge({ timeoutMs: 60_000 }),
    owner: claimOwner(),
    reuse: true,
    leaseMs: CLAIM_LEASE_MS,
  });
  const check = await checkAnchors(
    {
      text: yaml,
      file,
      ...(line !== undefined ? { line } : {}),
      ...(lines ? { lines } : {}),
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
      defaultModel: settings.value.judgeModel,
      toolVersion: pkg.version,
      loaded: read.value.loaded,
      spans: read.value.spans,
      resolveModel: setup.resolve,
    },
    { judge, now: Date.now, priceOf: setup.priceOf },
  );
  // A provider's error may quote the key it was sent: the browser gets none of the server's secrets.
  return NextResponse.json(createRedactor(setup.secrets).deep(check));
}
