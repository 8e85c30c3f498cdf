import { NextResponse } from "next/server";
import * as z from "zod";
import { createHumanLabels } from "../../../../../lib/store/human-labels";
import { errorResponse, type IdParams } from "../../../respond";
import { reviewerRequest, ReviewerField } from "../../reviewer";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  reviewer: ReviewerField,
  answer: z.string().min(1).max(40),
  note: z.string().max(2000).optional(),
});

/** Labels a review item: 201 with the label, the judges' verdicts and their cited evidence (shown only once the person has answered); 400 for an answer off the item's scale, 409 when another reviewer holds it or it is labelled. */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const read = await reviewerRequest(request, Body);
  if (!read.ok) return read.response;
  const saved = await createHumanLabels(read.prisma).saveLabel({
    itemId: id,
    reviewer: read.reviewer,
    answer: read.body.answer,
    ...(read.body.note !== undefined ? { note: read.body.note } : {}),
  });
  if (saved.ok)
    return NextResponse.json(
      { label: saved.label, verdicts: saved.verdicts, evidence: saved.evidence },
      { status: 201 },
    );
  return errorResponse(saved.code === "invalid" ? "bad_request" : saved.code, saved.message);
}
