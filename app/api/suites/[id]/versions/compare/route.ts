import * as z from "zod";
import { createSuiteStore } from "../../../../../../lib/store/suite-store";
import { errorResponse, fromResult, withDatabase, type IdParams } from "../../../../respond";

export const dynamic = "force-dynamic";

const Query = z.object({ from: z.string().min(1), to: z.string().min(1) });

/** GET ?from=VERSION&to=VERSION: both texts, for the diff view. */
export async function GET(request: Request, { params }: IdParams) {
  const { id } = await params;
  const url = new URL(request.url);
  const query = Query.safeParse({
    from: url.searchParams.get("from"),
    to: url.searchParams.get("to"),
  });
  if (!query.success) return errorResponse("bad_request", "Pass two versions: ?from=ID&to=ID.");
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(
    await createSuiteStore(db.prisma).getVersionPair({ suiteId: id, ...query.data }),
  );
}
