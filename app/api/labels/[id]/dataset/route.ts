import { createLabelDataset } from "../../../../../lib/store/label-dataset";
import { fromResult, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * "Add to dataset": appends the label to its suite's ReferenceDataset; 201 with the item, `added:
 * false` when it was there already.
 */
export async function POST(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createLabelDataset(db.prisma).add(id), 201);
}
