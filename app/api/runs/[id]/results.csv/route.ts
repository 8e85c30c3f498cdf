import { redactDeep } from "../../../../../lib/engine/results/redact-secrets";
import { csvHeader, csvResultLine } from "../../../../../lib/report/csv-rows";
import { createRunExport } from "../../../../../lib/store/run-export";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * GET: the run's results as CSV (the csv reporter's rows), streamed page by
 * page from the store as the client reads, so a 10,000-result run is never
 * held in memory whole. Each result is redacted as every reporter's is.
 */
export async function GET(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const store = createRunExport(db.prisma);
  if (!(await store.runExists(id))) return errorResponse("not_found", "No run with that id.");
  const criteria = await store.criterionNames(id);
  const pages = store.resultPages(id);
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    // One page per pull: the stream reads the store only as fast as the client takes the file.
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader(criteria)));
        return;
      }
      try {
        const next = await pages.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(
          encoder.encode(
            next.value.map((result) => csvResultLine(redactDeep(result), criteria)).join(""),
          ),
        );
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="run-${id}.csv"`,
      "cache-control": "no-store",
    },
  });
}
