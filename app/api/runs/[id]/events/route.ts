import { createRunViews } from "../../../../../lib/store/run-views";
import { runProgress } from "../../../../../lib/store/run-progress";
import { priceOfStoredCall } from "../../../../../lib/judge/provider-resolution";
import { clientAddress } from "../../../../../lib/access/request-address";
import { sharedStreamCounter } from "../../../../../lib/access/stream-limits";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";
import { onBrowserLeave } from "../../../browser-left";

export const dynamic = "force-dynamic";

const INTERVAL_MS = 500;

/**
 * Server-sent events: a `progress` event every half second with the run's
 * status, results done of total, outcome counts, cost and ETA; `end` once the
 * run is completed, cancelled or failed. A client that comes back reconnects.
 * Streams are bounded per client address, per run and in all
 * (lib/access/stream-limits.ts): one more is a 429 that says which bound.
 */
export async function GET(request: Request, { params }: IdParams) {
  const { id } = await params;
  // Counted before the database is asked anything: a refused stream costs no query.
  const place = sharedStreamCounter().acquire({ client: clientAddress(request.headers), run: id });
  if (!place.ok) return errorResponse("too_many", place.message);
  const db = withDatabase();
  if (!db.ok) {
    place.release();
    return db.response;
  }
  const views = createRunViews(db.prisma);
  const exists = await views.runOverview(id).catch((error: unknown) => {
    place.release();
    throw error;
  });
  if (!exists) {
    place.release();
    return errorResponse("not_found", "No such run.");
  }
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let release: () => void = () => undefined;
  const stop = () => {
    closed = true;
    clearTimeout(timer);
    place.release();
    release();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: string, data: unknown) =>
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      const close = () => {
        if (closed) return;
        stop();
        controller.close();
      };
      release = onBrowserLeave(request, close);
      const tick = async () => {
        if (closed) return;
        try {
          const run = await views.runOverview(id);
          if (closed) return;
          if (!run) return close();
          const progress = runProgress({ run, now: Date.now(), priceOf: priceOfStoredCall });
          send("progress", progress);
          if (progress.finished) {
            send("end", { status: progress.status });
            return close();
          }
        } catch (error) {
          if (closed) return;
          send("problem", { message: (error as Error).message });
        }
        timer = setTimeout(() => void tick(), INTERVAL_MS);
      };
      void tick();
    },
    cancel: stop,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
