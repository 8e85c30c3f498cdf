import { NextResponse } from "next/server";
import { createLabelDataset } from "../../../../../lib/store/label-dataset";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/** The suite's labels dataset as a ReferenceDataset JSON file (the Go package's shape), downloaded. */
export async function GET(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const dataset = await createLabelDataset(db.prisma).dataset(id);
  if (!dataset) return errorResponse("not_found", "No such suite.");
  const file = `${dataset.id.replace(/[^\w.-]+/g, "-")}.json`;
  return new NextResponse(`${JSON.stringify(dataset, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${file}"`,
    },
  });
}
