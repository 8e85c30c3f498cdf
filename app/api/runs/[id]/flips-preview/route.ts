import { NextResponse } from "next/server";
import { LIMITS } from "../../../../../lib/config/limits";
import { createRedactor } from "../../../../../lib/engine/results/redact-values";
import { readEnv } from "../../../../../lib/env/read-env";
import { dashboardProviders, serverProviderSetup } from "../../../../../lib/judge/server-providers";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import {
  planFlipsPreview,
  runFlipsPreview,
  overBound,
  type FlipsPreviewInput,
} from "../../../../../lib/store/flips-preview";
import { FlipsPreviewBody } from "../../../../../components/authoring/flips-types";
import { saveRefusal } from "../../../../../components/authoring/run-action";
import pkg from "../../../../../package.json";
import {
  errorResponse,
  fromResult,
  parseJson,
  withDatabase,
  type IdParams,
} from "../../../respond";
import { onBrowserLeave } from "../../../browser-left";

export const dynamic = "force-dynamic";

// POST { yaml, suiteId, plan? } -> the editor's "Flips against run…": the
// stored run's candidates graded with the editor's unsaved text, with the
// server's providers, through the judge cache (unchanged evals cost
// nothing). `plan: true` answers what it would pay, from the cache alone. The
// text is loaded on a worker thread under a time limit and refused, located,
// as Save refuses it; a preview pays for at most LIMITS.requestJudgeCalls
// calls, stops when the browser goes away, and stores no run. Its answer
// streams JSON lines: progress, then the preview (or the error).
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, FlipsPreviewBody);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const settings = readEnv();
  if (!settings.ok) return errorResponse("unavailable", settings.message);
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok) return errorResponse("unavailable", providers.message);
  const loaded = await suiteWorkers().run(
    { kind: "load", text: body.value.yaml, file: "suite.yaml", providers: providers.value },
    { signal: request.signal },
  );
  if (!loaded.ok) return errorResponse(loaded.code, loaded.message);
  if (!loaded.value.ok)
    return errorResponse(
      "bad_request",
      saveRefusal(loaded.value.issues, "No preview") ?? "No preview: the suite does not load.",
    );
  const setup = serverProviderSetup({
    settings: settings.value,
    env: process.env,
    providers: providers.value.providers,
  });
  const redact = createRedactor(setup.secrets);
  const stop = new AbortController();
  const release = onBrowserLeave(request, () => stop.abort());
  const input: FlipsPreviewInput = {
    prisma: db.prisma,
    runId: id,
    suiteId: body.value.suiteId,
    suite: loaded.value.value,
    defaultModel: settings.value.judgeModel,
    toolVersion: pkg.version,
    priceOf: setup.priceOf,
    resolveModel: setup.resolve,
    maxCalls: LIMITS.requestJudgeCalls,
    signal: stop.signal,
  };
  let streams = false;
  try {
    if (body.value.plan) return fromResult(await planFlipsPreview(input));
    // Refusals (another suite's run, an unknown one, past the bound) are known before any call: a 4xx.
    const planned = await planFlipsPreview(input);
    if (!planned.ok) return fromResult(planned);
    if (planned.value.calls > planned.value.maxCalls) return fromResult(overBound(planned.value));
    const stream = previewStream({
      input: { ...input, judge: setup.createJudge({ timeoutMs: 60_000 }), plan: planned.value },
      redact,
      stop,
      release,
    });
    streams = true;
    return new NextResponse(stream, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "cache-control": "no-store",
      },
    });
  } finally {
    // A streamed preview lets the request go when it ends; any other answer, now.
    if (!streams) release();
  }
}

function previewStream({
  input,
  redact,
  stop,
  release,
}: {
  input: Omit<Parameters<typeof runFlipsPreview>[0], "onProgress">;
  redact: ReturnType<typeof createRedactor>;
  stop: AbortController;
  release: () => void;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      try {
        const preview = await runFlipsPreview({
          ...input,
          onProgress: (done, total) => send({ progress: { done, total } }),
        });
        // A provider's error may quote the key it was sent: the browser gets none of the server's secrets.
        send(
          preview.ok
            ? { preview: redact.deep(preview.value) }
            : { error: { code: preview.code, message: preview.message } },
        );
      } catch (error) {
        send({
          error: { code: "failed", message: `The preview failed: ${(error as Error).message}` },
        });
      } finally {
        release();
        // Closed once the work has stopped; a stream the browser already cancelled refuses, and needs no close.
        try {
          controller.close();
        } catch {}
      }
    },
    // The browser went away (navigated, or a newer preview started): no call not yet started is made.
    cancel() {
      stop.abort();
    },
  });
}
