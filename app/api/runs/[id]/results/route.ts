import { NextResponse } from "next/server";
import {
  cellFilter,
  firstValues,
  pagingOf,
  positionOf,
  RowsRequestSchema,
  SORT_COLUMN,
  toResultRowView,
  type ResultRowsResponse,
} from "../../../../../components/results/results-query";
import { createRunQueries } from "../../../../../lib/store/run-queries";
import { createRunViews } from "../../../../../lib/store/run-views";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * One page of a run's results table: `limit` rows (at most 500), filtered by `status`, `q` and one
 * matrix cell (`agent`, `model`, `prompt`) and sorted by `sort`/`dir` on the server, paged by
 * keyset (`after` a page's `nextCursor`, `before` its `prevCursor`, `last=1`; none: the first
 * page), with the total that match and where the page's first row is.
 */
export async function GET(request: Request, { params }: IdParams) {
  const { id } = await params;
  const parsed = RowsRequestSchema.safeParse(firstValues(new URL(request.url).searchParams));
  if (!parsed.success)
    return errorResponse(
      "bad_request",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  const db = withDatabase();
  if (!db.ok) return db.response;
  const query = parsed.data;
  const cell = cellFilter(query);
  let page;
  try {
    page = await createRunQueries(db.prisma).runResultsPage({
      runId: id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { search: query.q } : {}),
      ...(cell ? { cell } : {}),
      sort: { by: SORT_COLUMN[query.sort], direction: query.dir },
      pageSize: query.limit,
      ...pagingOf(positionOf(query)),
    });
  } catch (error) {
    // A cursor made for another sort, or edited: the caller's mistake, said with a 400.
    if (error instanceof RangeError) return errorResponse("bad_request", error.message);
    throw error;
  }
  // Only an empty answer needs to tell "no such run" from "nothing matches".
  if (page.total === 0 && !(await createRunViews(db.prisma).runOverview(id)))
    return errorResponse("not_found", "No run with that id.");
  const body: ResultRowsResponse = {
    firstIndex: page.firstIndex,
    total: page.total,
    rows: page.rows.map(toResultRowView),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
  };
  return NextResponse.json(body, { headers: { "cache-control": "no-store" } });
}
