import type { z } from "zod";
import type { DataPath, YamlLocator } from "./yaml-locator";
import type { ConfigIssue } from "./types";

// Turns zod's issues into located, readable ones. Unions are where zod's raw
// output hurts most: it reports every branch. We pick the branch the author
// evidently meant (the one whose keys they used) and report only its issues.

type RawIssue = z.core.$ZodIssue;
type AnySchema = z.core.$ZodType;

interface Flat {
  path: DataPath;
  /** The field is absent (not merely of the wrong type). */
  missing: boolean;
  code: string;
  message: string;
  keys?: string[];
  schema?: AnySchema;
}

function defOf(schema: AnySchema | undefined): Record<string, unknown> | undefined {
  return schema ? (schema._zod.def as unknown as Record<string, unknown>) : undefined;
}

function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  for (let i = 0; i < 10 && current; i++) {
    const def = defOf(current)!;
    if (
      def.type === "optional" ||
      def.type === "default" ||
      def.type === "nullable" ||
      def.type === "readonly"
    ) {
      current = def.innerType as AnySchema;
    } else if (def.type === "lazy") {
      current = (def.getter as () => AnySchema)();
    } else if (def.type === "pipe") {
      current = def.in as AnySchema;
    } else {
      return current;
    }
  }
  return current;
}

/** The schema that describes the value at `path` below `schema`, through objects, arrays and records. */
function schemaAt(schema: AnySchema | undefined, path: DataPath): AnySchema | undefined {
  if (path.length === 0) return unwrap(schema);
  const def = defOf(unwrap(schema));
  const [segment, ...rest] = path;
  if (!def) return undefined;
  if (def.type === "object")
    return schemaAt((def.shape as Record<string, AnySchema>)[String(segment)], rest);
  if (def.type === "array") return schemaAt(def.element as AnySchema, rest);
  if (def.type === "record") return schemaAt(def.valueType as AnySchema, rest);
  // zod reports a union's issues with full paths when only one branch could
  // match; follow the first branch through which the path leads.
  if (def.type === "union") {
    for (const option of def.options as AnySchema[]) {
      const found = schemaAt(option, path);
      if (found) return found;
    }
  }
  return undefined;
}

function fieldsOf(schema: AnySchema | undefined): string[] {
  const def = defOf(unwrap(schema));
  if (def?.type === "object") return Object.keys(def.shape as object);
  if (def?.type === "union") return [...new Set((def.options as AnySchema[]).flatMap(fieldsOf))];
  return [];
}

function isMissing(issue: Flat): boolean {
  return issue.missing;
}

function branchRank(issues: Flat[], unionDepth: number): [number, number, number] {
  const rootTypeMismatch = issues.some(
    (i) => i.code === "invalid_type" && i.path.length === unionDepth && !isMissing(i),
  );
  const strayKeys = issues
    .filter((i) => i.code === "unrecognized_keys" && i.path.length === unionDepth)
    .reduce((n, i) => n + (i.keys?.length ?? 0), 0);
  const missing = issues.filter((i) => isMissing(i) && i.path.length === unionDepth + 1).length;
  return [rootTypeMismatch ? 1 : 0, strayKeys, missing];
}

function compareRank(a: [number, number, number], b: [number, number, number]): number {
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! - b[i]!;
  return 0;
}

function flatten(
  issue: RawIssue,
  base: DataPath,
  schema: AnySchema | undefined,
  value: (path: DataPath) => unknown,
): Flat[] {
  const path = [...base, ...(issue.path as DataPath)];
  if (issue.code !== "invalid_union") {
    const flat: Flat = {
      path,
      missing: issue.code === "invalid_type" && value(path) === undefined,
      code: issue.code,
      message: issue.message,
    };
    if (issue.code === "unrecognized_keys") {
      flat.keys = issue.keys;
      flat.schema = schemaAt(schema, issue.path as DataPath);
    }
    return [flat];
  }
  const unionSchema = schemaAt(schema, issue.path as DataPath);
  const options = (defOf(unionSchema)?.options as AnySchema[] | undefined) ?? [];
  if (value(path) === undefined)
    return [{ path, missing: true, code: "invalid_type", message: issue.message }];
  const branches = issue.errors.map((errors, i) =>
    errors.flatMap((e) => flatten(e, path, options[i], value)),
  );
  const ranked = branches
    .map((b) => ({ issues: b, rank: branchRank(b, path.length) }))
    .sort((a, b) => compareRank(a.rank, b.rank));
  const best = ranked[0];
  const runnerUp = ranked[1];
  // When no branch is clearly meant (or the best is a plain type mismatch),
  // the union's own message names the valid shapes.
  const valueItselfWrong = best?.issues.every(
    (i) =>
      i.path.length === path.length && (i.code === "invalid_value" || i.code === "invalid_type"),
  );
  if (
    !best ||
    best.rank[0] === 1 ||
    valueItselfWrong ||
    (runnerUp && compareRank(best.rank, runnerUp.rank) === 0)
  ) {
    return [{ path, missing: false, code: "invalid_union", message: issue.message }];
  }
  return best.issues;
}

function closest(word: string, choices: string[]): string | undefined {
  let bestChoice: string | undefined;
  let bestDistance = Infinity;
  for (const choice of choices) {
    const d = editDistance(word.toLowerCase(), choice.toLowerCase());
    if (d < bestDistance) [bestChoice, bestDistance] = [choice, d];
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? bestChoice : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const temp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = temp;
    }
  }
  return row[b.length]!;
}

export { closest as closestChoice };

export function zodIssuesToConfigIssues(input: {
  error: z.ZodError;
  schema: AnySchema;
  data: unknown;
  locator: YamlLocator;
  file: string;
}): ConfigIssue[] {
  const { error, schema, data, locator, file } = input;
  const value = (path: DataPath): unknown => {
    let node: unknown = data;
    for (const segment of path) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as Record<string | number, unknown>)[segment];
    }
    return node;
  };
  const flat = error.issues.flatMap((issue) => flatten(issue, [], schema, value));
  const issues: ConfigIssue[] = [];
  for (const f of flat) {
    if (f.code === "unrecognized_keys") {
      const valid = fieldsOf(f.schema);
      for (const key of f.keys ?? []) {
        const suggestion = closest(key, valid);
        const hint = suggestion ? ` (did you mean "${suggestion}"?)` : "";
        const message = `unknown field "${key}"${hint}; valid fields here: ${valid.join(", ")}`;
        issues.push({
          file,
          ...locator.locateKey(f.path, key),
          path: [...f.path, key],
          message,
          severity: "error",
        });
      }
      continue;
    }
    let message = f.message;
    if (isMissing(f)) message = `missing required field "${String(f.path[f.path.length - 1])}"`;
    else if (f.code === "too_small" && /expected string/.test(message))
      message = "must not be empty";
    else if (f.code === "too_small" && /expected array/.test(message))
      message = "must list at least one item";
    issues.push({ file, ...locator.locate(f.path), path: f.path, message, severity: "error" });
  }
  return issues;
}
