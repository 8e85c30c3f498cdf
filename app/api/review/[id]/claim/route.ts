import { NextResponse } from "next/server";
import { z } from "zod";
import { createReviewQueue } from "../../../../../lib/store/review-queue";
import { errorResponse, parseJson, withDatabase, type IdParams } from "../../../respond";
import { requestReviewer, ReviewerField } from "../../reviewer";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ reviewer: ReviewerField });

/** Claims a review item for the reviewer: 200 with the item, 409 when another reviewer holds it or it is labelled. */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, Body);
  if (!body.ok) return body.response;
  const reviewer = await requestReviewer(body.value.reviewer);
  if (!reviewer.ok) return errorResponse("bad_request", reviewer.message);
  const db = withDatabase();
  if (!db.ok) return db.response;
  const claim = await createReviewQueue(db.prisma).claim({ id, reviewer: reviewer.name });
  if (claim.ok) return NextResponse.json(claim.item);
  if (claim.code === "claimed") return errorResponse("claimed", `${claim.by} is labelling this item.`);
  if (claim.code === "labelled") return errorResponse("labelled", claim.byYou ? "You labelled this item already: its second opinion is another person's." : "This item is labelled already.");
  return errorResponse(claim.code, "No such review item.");
}

/** Gives the reviewer's claim back. */
export async function DELETE(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, Body);
  if (!body.ok) return body.response;
  const reviewer = await requestReviewer(body.value.reviewer);
  if (!reviewer.ok) return errorResponse("bad_request", reviewer.message);
  const db = withDatabase();
  if (!db.ok) return db.response;
  return NextResponse.json({ released: await createReviewQueue(db.prisma).release({ id, reviewer: reviewer.name }) });
}
