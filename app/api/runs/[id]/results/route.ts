import { NextResponse } from "next/server";
import {
  cellFilter,
  firstValues,
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
 * Rows of a run's results table, for the run page's scroller: `limit` rows
 * (at most 500) from `offset`, filtered by `status`, `q` and one matrix cell (`agent`, `model`, `prompt`) and sorted by
 * `sort`/`dir` on the server, with the total that match.
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
  const page = await createRunQueries(db.prisma).runResultsPage({
    runId: id,
    ...(query.status ? { status: query.status } : {}),
    ...(query.q ? { search: query.q } : {}),
    ...(cell ? { cell } : {}),
    sort: { by: SORT_COLUMN[query.sort], direction: query.dir },
    pageSize: query.limit,
    offset: query.offset,
  });
  // Only an empty answer needs to tell "no such run" from "nothing matches".
  if (page.total === 0 && !(await createRunViews(db.prisma).runOverview(id)))
    return errorResponse("not_found", "No run with that id.");
  const body: ResultRowsResponse = {
    offset: query.offset,
    total: page.total,
    rows: page.rows.map(toResultRowView),
  };
  return NextResponse.json(body, { headers: { "cache-control": "no-store" } });
}
