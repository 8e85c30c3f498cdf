import { NextResponse } from "next/server";
import * as z from "zod";
import { createReviewQueue } from "../../../../../lib/store/review-queue";
import { errorResponse, type IdParams } from "../../../respond";
import { reviewerRequest, ReviewerField } from "../../reviewer";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ reviewer: ReviewerField });

/** Claims a review item for the reviewer: 200 with the item, 409 when another reviewer holds it or it is labelled. */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const read = await reviewerRequest(request, Body);
  if (!read.ok) return read.response;
  const claim = await createReviewQueue(read.prisma).claim({ id, reviewer: read.reviewer });
  if (claim.ok) return NextResponse.json(claim.item);
  if (claim.code === "claimed")
    return errorResponse("claimed", `${claim.by} is labelling this item.`);
  if (claim.code === "labelled")
    return errorResponse(
      "labelled",
      claim.byYou
        ? "You labelled this item already: its second opinion is another person's."
        : "This item is labelled already.",
    );
  return errorResponse(claim.code, "No such review item.");
}

/** Gives the reviewer's claim back. */
export async function DELETE(request: Request, { params }: IdParams) {
  const { id } = await params;
  const read = await reviewerRequest(request, Body);
  if (!read.ok) return read.response;
  return NextResponse.json({
    released: await createReviewQueue(read.prisma).release({ id, reviewer: read.reviewer }),
  });
}
