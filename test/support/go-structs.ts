import { readFileSync } from "node:fs";

// The Go package's structs as its API reference defines them
// (test/fixtures/go-wire/evaluation-structs.go.txt, verbatim from spec 004),
// and a check of a JSON value against one of them: every key one of the
// struct's json tags, in struct order (Go marshals fields in order), every
// field without omitempty present, nested structs and lists checked alike.

interface GoField {
  goType: string;
  json: string;
  omitempty: boolean;
}

const STRUCTS = new URL("../fixtures/go-wire/evaluation-structs.go.txt", import.meta.url);

export function goStructs(): Map<string, GoField[]> {
  const structs = new Map<string, GoField[]>();
  let current: GoField[] | undefined;
  for (const line of readFileSync(STRUCTS, "utf8").split("\n")) {
    const start = /^type (\w+) struct \{$/.exec(line);
    if (start) {
      current = [];
      structs.set(start[1]!, current);
      continue;
    }
    if (line === "}") current = undefined;
    const field = /^\s*\w+\s+(\S+)\s+`json:"([^"]+)"`/.exec(line);
    if (current && field) {
      const [name, ...options] = field[2]!.split(",");
      current.push({ goType: field[1]!, json: name!, omitempty: options.includes("omitempty") });
    }
  }
  return structs;
}

/** Problems of `value` as the JSON of Go type `goType`, each with its path; none when it matches the spec. */
export function checkGoJson(value: unknown, goType: string, at = "$"): string[] {
  const structs = goStructs();
  const check = (v: unknown, type: string, path: string): string[] => {
    const bare = type.replace(/^\*/, "");
    if (bare.startsWith("[]")) {
      if (v === null) return [];
      if (!Array.isArray(v)) return [`${path}: expected a list (${type})`];
      return v.flatMap((item, i) => check(item, bare.slice(2), `${path}[${i}]`));
    }
    const fields = structs.get(bare);
    if (!fields) return [];
    if (v === null || typeof v !== "object" || Array.isArray(v))
      return [`${path}: expected an object (${bare})`];
    const keys = Object.keys(v);
    const names = fields.map((f) => f.json);
    const problems = keys
      .filter((k) => !names.includes(k))
      .map((k) => `${path}.${k}: not a field of ${bare} (its fields: ${names.join(", ")})`);
    for (const field of fields)
      if (!field.omitempty && !keys.includes(field.json))
        problems.push(`${path}.${field.json}: missing (${bare} has no omitempty on it)`);
    const order = keys.filter((k) => names.includes(k));
    const expected = [...order].sort((a, b) => names.indexOf(a) - names.indexOf(b));
    if (order.join() !== expected.join())
      problems.push(
        `${path}: fields out of struct order: ${order.join(", ")}; Go writes ${expected.join(", ")}`,
      );
    for (const field of fields) {
      if (keys.includes(field.json))
        problems.push(
          ...check(
            (v as Record<string, unknown>)[field.json],
            field.goType,
            `${path}.${field.json}`,
          ),
        );
    }
    return problems;
  };
  return check(value, goType, at);
}
