import * as z from "zod";

// Reading and writing JSON the way Go's encoding/json does for the spec's
// types, so that files round-trip with the Go package byte for byte in shape:
// keys in struct-field order, and `omitempty` fields dropped when they hold a
// zero value ("", 0, false, an empty list or map). A schema built with these
// helpers both parses a Go file (zod keeps the shape's key order) and, through
// toGoJson, writes one.

const OMITEMPTY = new WeakSet<z.ZodType>();

/** A field tagged `json:",omitempty"`: optional, and dropped on write when zero. */
export function omitempty<T extends z.ZodType>(schema: T): z.ZodOptional<T> {
  const optional = schema.optional();
  OMITEMPTY.add(optional);
  return optional;
}

/** A Go slice without omitempty: `null` when nil, which reads as an empty list. */
export function goList<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (value === null ? [] : value), z.array(item));
}

function isZero(value: unknown): boolean {
  if (value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  out?: z.ZodType;
  in?: z.ZodType;
};
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    if (
      (def.type === "optional" || def.type === "nullable" || def.type === "default") &&
      def.innerType
    )
      current = def.innerType;
    else if (def.type === "pipe" && def.out) current = def.out;
    else return current;
  }
  return current;
}

/** The value as Go would marshal it under `schema`: field order, omitempty. */
export function toGoJson(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (value === undefined || value === null) return value;
  if (def.type === "object" && def.shape && typeof value === "object") {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(def.shape)) {
      const item = source[key];
      if (item === undefined) continue;
      if (OMITEMPTY.has(field) && isZero(item)) continue;
      out[key] = toGoJson(field, item);
    }
    return out;
  }
  if (def.type === "array" && def.element && Array.isArray(value))
    return value.map((item) => toGoJson(def.element!, item));
  return value;
}

/** A place in a JSON file: its dot-separated path (`categories.1.id`), `(root)` for the whole file. */
export function jsonPathText(path: readonly PropertyKey[]): string {
  return path.length > 0 ? path.map(String).join(".") : "(root)";
}

/** Zod issues as `path: message` lines, for files that are not the YAML suite. */
export function describeZodError(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${jsonPathText(issue.path)}: ${issue.message}`);
}
