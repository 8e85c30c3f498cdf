import { NextResponse } from "next/server";
import * as z from "zod";
import { createReviewQueue } from "../../../../../lib/store/review-queue";
import { reviewerRequest, ReviewerField } from "../../../review/reviewer";
import { errorResponse, type IdParams } from "../../../respond";

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
  const read = await reviewerRequest(request, Body);
  if (!read.ok) return read.response;
  const { resultKey, criterion, note } = read.body;
  const asked = await createReviewQueue(read.prisma).ask({
    runId: id,
    resultKey,
    criterion,
    by: read.reviewer,
    ...(note !== undefined ? { note } : {}),
  });
  return asked.ok
    ? NextResponse.json(asked.value, { status: 201 })
    : errorResponse(asked.code, asked.message);
}
