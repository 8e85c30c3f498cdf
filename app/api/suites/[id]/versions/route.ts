import { createSuiteStore } from "../../../../../lib/store/suite-store";
import { SaveVersionBody } from "../../../../../components/authoring/api-types";
import { fromResult, parseJson, withDatabase, type IdParams } from "../../../respond";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createSuiteStore(db.prisma).listVersions(id));
}

/** Saves the editor's text as a version; 201 when it is new, 200 when unchanged. */
export async function POST(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, SaveVersionBody);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  const saved = await createSuiteStore(db.prisma).saveVersion({
    suiteId: id,
    yaml: body.value.yaml,
  });
  return fromResult(saved, saved.ok && saved.value.created ? 201 : 200);
}
