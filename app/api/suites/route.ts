import { NextResponse } from "next/server";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { CreateSuiteBody } from "../../../components/authoring/api-types";
import { fromResult, parseJson, withDatabase } from "../respond";

export const dynamic = "force-dynamic";

export async function GET() {
  const db = withDatabase();
  if (!db.ok) return db.response;
  return NextResponse.json(await createSuiteStore(db.prisma).listSuites());
}

export async function POST(request: Request) {
  const body = await parseJson(request, CreateSuiteBody);
  if (!body.ok) return body.response;
  const db = withDatabase();
  if (!db.ok) return db.response;
  return fromResult(await createSuiteStore(db.prisma).createSuite(body.value), 201);
}
