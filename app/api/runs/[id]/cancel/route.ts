import { createRunStore } from "../../../../../lib/store/run-store";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";
import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asks the workers to stop scheduling judge calls for a queued or running run. */
export async function POST(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const requested = UUID.test(id) && (await createRunStore(db.prisma).requestCancel(id));
  return requested ? NextResponse.json({ cancelRequested: true }) : errorResponse("not_found", "No queued or running run with that id.");
}
