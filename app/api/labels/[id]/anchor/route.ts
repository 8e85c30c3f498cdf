import * as z from "zod";
import { suiteWorkers } from "../../../../../lib/offthread/suite-workers";
import { createLabelAnchors } from "../../../../../lib/store/label-anchor";
import { fromResult, parseJson, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

// A saved suite came from a browser: it is loaded on a worker thread, under a time limit.
const loadOffThread = (input: { text: string; file: string }) =>
  suiteWorkers().run({ kind: "load", ...input });

/** The label as a new anchor: the suite's newest version and the text with the anchor added, for a diff. */
export async function GET(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createLabelAnchors(db.prisma, loadOffThread).propose(id));
}

const Body = z.strictObject({ baseVersionId: z.uuid() });

/**
 * Saves it as the suite's new version: 201 `{ suiteId, versionId }`; 409 when the suite changed
 * since the diff was shown.
 */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, Body);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(
    await createLabelAnchors(db.prisma, loadOffThread).save({
      labelId: id,
      baseVersionId: body.value.baseVersionId,
    }),
    201,
  );
}
