import { createSuiteStore } from "../../../../lib/store/suite-store";
import { RenameSuiteBody } from "../../../../components/authoring/api-types";
import { fromResult, parseJson, withDatabase, type IdParams } from "../../respond";

export async function PATCH(request: Request, { params }: IdParams) {
  const { id } = await params;
  const body = await parseJson(request, RenameSuiteBody);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createSuiteStore(db.prisma).renameSuite({ id, name: body.value.name }));
}

export async function DELETE(_request: Request, { params }: IdParams) {
  const { id } = await params;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createSuiteStore(db.prisma).deleteSuite(id));
}
