import { readEnv } from "../../../../../lib/env/read-env";
import { priceOf } from "../../../../../lib/judge/pricing";
import { skipQueuedCells } from "../../../../../lib/store/run-cancel";
import { agreementOffThread } from "../../../../../lib/offthread/agreement-off-thread";
import { createRunStore } from "../../../../../lib/store/run-store";
import { GRADE_QUEUE, openQueue } from "../../../../../lib/store/grade-queue";
import { isUuid } from "../../../../../lib/store/uuid";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";
import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/**
 * Asks the workers to stop scheduling judge calls for a queued or running run,
 * and at once stores its cells not yet started as skipped (cancelled) and
 * drops their jobs (a queued run is then cancelled without waiting its turn).
 */
export async function POST(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const requested = isUuid(id) && (await createRunStore(db.prisma).requestCancel(id));
  if (!requested) return errorResponse("not_found", "No queued or running run with that id.");
  const settings = readEnv();
  // Without the queue's URL the workers still skip the queued cells, within half a second of taking one.
  if (settings.ok && settings.value.databaseUrl) {
    const boss = await openQueue({ db: { url: settings.value.databaseUrl }, poolSize: 1 });
    try {
      // Should that finish the run, its judge agreement is computed on a thread, not this server's loop.
      await skipQueuedCells({
        prisma: db.prisma,
        boss,
        queue: GRADE_QUEUE,
        runId: id,
        priceOf,
        computeAgreement: agreementOffThread,
      });
    } finally {
      await boss.stop({ graceful: false });
    }
  }
  return NextResponse.json({ cancelRequested: true });
}
