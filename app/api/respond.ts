import { NextResponse } from "next/server";
import type { z } from "zod";
import { dashboardDatabase } from "../../lib/store/dashboard-database";
import type { PrismaClient } from "../../lib/store/connection";

// The edge where store results and bad input become HTTP statuses (DESIGN.md
// house rule 6): handlers parse with zod, call one lib function, and map its
// code here. Bodies are always { error: { code, message } } on failure.

const STATUS: Record<string, number> = { bad_request: 400, not_found: 404, name_taken: 409, unavailable: 503 };

export function errorResponse(code: string, message: string): NextResponse {
  return NextResponse.json({ error: { code, message } }, { status: STATUS[code] ?? 500 });
}

export function fromResult<T>(result: { ok: true; value: T } | { ok: false; code: string; message: string }, status = 200): NextResponse {
  return result.ok ? NextResponse.json(result.value, { status }) : errorResponse(result.code, result.message);
}

export async function parseJson<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: NextResponse }> {
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const message = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
  return { ok: false, response: errorResponse("bad_request", message || "The request body must be JSON.") };
}

/** The database, or a 503 that says how to start it. */
export function withDatabase(): { ok: true; prisma: PrismaClient } | { ok: false; response: NextResponse } {
  const db = dashboardDatabase();
  return db.ok ? db : { ok: false, response: errorResponse("unavailable", db.message) };
}

export type IdParams = { params: Promise<{ id: string }> };
