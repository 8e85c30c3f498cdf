import { createSuiteStore } from "../../../../../lib/store/suite-store";
import { attachmentHeader, suiteFileName } from "../../../../../components/authoring/suite-file";
import { errorResponse, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

/**
 * GET ?version=ID (default: the newest): the suite's YAML as a download,
 * exactly as saved, named after the suite, for the CLI or another editor.
 */
export async function GET(request: Request, { params }: IdParams) {
  const { id } = await params;
  const version = new URL(request.url).searchParams.get("version");
  const db = withDatabase();
  if (!db.ok) return db.response;
  const store = createSuiteStore(db.prisma);
  const suite = await store.getSuite(id);
  if (!suite) return errorResponse("not_found", "There is no suite with this id.");
  let yaml: string;
  if (version === null) {
    if (!suite.latest)
      return errorResponse("not_found", "This suite has no saved version yet: save one first.");
    yaml = suite.latest.yaml;
  } else {
    const pair = await store.getVersionPair({ suiteId: id, from: version, to: version });
    if (!pair.ok)
      return errorResponse(
        pair.code,
        pair.code === "not_found" ? "This suite has no such version." : pair.message,
      );
    yaml = pair.value.to.yaml;
  }
  return new Response(yaml, {
    headers: {
      "content-type": "text/yaml; charset=utf-8",
      "content-disposition": attachmentHeader(suiteFileName(suite.name)),
      "cache-control": "no-store",
    },
  });
}
