import { NextResponse } from "next/server";
import { z } from "zod";
import { createReviewQueue } from "../../../../../lib/store/review-queue";
import { requestReviewer, ReviewerField } from "../../../review/reviewer";
import { errorResponse, parseJson, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  resultKey: z.string().min(1).max(2000),
  criterion: z.string().min(1).max(500),
  reviewer: ReviewerField,
  note: z.string().max(2000).optional(),
});

/** "Ask a person": queues one criterion of a stored result for a person; 201 with the queued item. */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, Body);
  if (!body.ok) return body.response;
  const reviewer = await requestReviewer(body.value.reviewer);
  if (!reviewer.ok) return errorResponse("bad_request", reviewer.message);
  const db = withDatabase();
  if (!db.ok) return db.response;
  const { resultKey, criterion, note } = body.value;
  const asked = await createReviewQueue(db.prisma).ask({ runId: id, resultKey, criterion, by: reviewer.name, ...(note !== undefined ? { note } : {}) });
  return asked.ok ? NextResponse.json(asked.value, { status: 201 }) : errorResponse(asked.code, asked.message);
}
