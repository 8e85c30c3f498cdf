import { NextResponse } from "next/server";
import type { z } from "zod";
import { dashboardDatabase } from "../../lib/store/dashboard-database";
import type { PrismaClient } from "../../lib/store/connection";
import {
  describeUnstorable,
  unstorableAt,
  unstorableStrings,
} from "../../lib/config/storable-text";

// The edge where store results and bad input become HTTP statuses (DESIGN.md
// house rule 6): handlers parse with zod, call one lib function, and map its
// code here. Bodies are always { error: { code, message } } on failure.

const STATUS: Record<string, number> = {
  bad_request: 400,
  not_found: 404,
  name_taken: 409,
  claimed: 409,
  labelled: 409,
  version_changed: 409,
  too_large: 413,
  too_complex: 422,
  too_many: 429,
  busy: 503,
  unavailable: 503,
};

/** A suite is at most 2 MB of YAML; as a JSON string, escapes included, it fits well under this. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function errorResponse(code: string, message: string): NextResponse {
  return NextResponse.json({ error: { code, message } }, { status: STATUS[code] ?? 500 });
}

export function fromResult<T>(
  result: { ok: true; value: T } | { ok: false; code: string; message: string },
  status = 200,
): NextResponse {
  return result.ok
    ? NextResponse.json(result.value, { status })
    : errorResponse(result.code, result.message);
}

export async function parseJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: NextResponse }> {
  const read = await readBody(request, MAX_BODY_BYTES);
  if (!read.ok) return { ok: false, response: errorResponse(read.code, read.message) };
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return { ok: false, response: errorResponse("bad_request", "The request body must be JSON.") };
  }
  // Every route stores what it is sent: text Postgres cannot hold (a NUL, an unpaired surrogate) is refused here, for all of them at once.
  const [unstorable] = unstorableStrings(body, 1);
  if (unstorable) {
    const what = describeUnstorable(unstorable.text, unstorableAt(unstorable.text));
    const where = unstorable.path.length ? `${unstorable.path.join(".")}: ` : "";
    return {
      ok: false,
      response: errorResponse(
        "bad_request",
        `${where}contains ${what}, which cannot be stored; remove it.`,
      ),
    };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const message = parsed.error.issues
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
  return {
    ok: false,
    response: errorResponse("bad_request", message || "The request body must be JSON."),
  };
}

type BodyRead =
  { ok: true; text: string } | { ok: false; code: "too_large" | "bad_request"; message: string };

/**
 * The body as text, read no further than `limit` bytes: a larger one is
 * refused by its Content-Length before any of it is read, or as soon as the
 * stream passes the limit. A client that hangs up mid-body is a 400 here, not
 * an unhandled "aborted" error.
 */
async function readBody(request: Request, limit: number): Promise<BodyRead> {
  const tooLarge: BodyRead = {
    ok: false,
    code: "too_large",
    message: `The request body is larger than ${limit / 1024 / 1024} MB (a suite may be at most 2 MB).`,
  };
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return tooLarge;
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch (error) {
    return {
      ok: false,
      code: "bad_request",
      message: `The request body could not be read: ${(error as Error).message}.`,
    };
  }
  return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
}

/** The database, or a 503 that says how to start it. */
export function withDatabase():
  { ok: true; prisma: PrismaClient } | { ok: false; response: NextResponse } {
  const db = dashboardDatabase();
  return db.ok ? db : { ok: false, response: errorResponse("unavailable", db.message) };
}

export type IdParams = { params: Promise<{ id: string }> };
