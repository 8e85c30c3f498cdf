import type { z } from "zod";
import { SuiteSchema } from "./schema";
import { zodIssuesToConfigIssues } from "./zod-issues";
import type { DataPath, YamlLocator } from "./yaml-locator";
import type { ConfigIssue } from "./types";

// When the schema rejects a suite, the checks zod cannot say (refs, presets,
// duplicate names, ...) should still run on the rest of it, so the editor and
// the CLI show every problem at once, not the schema's first and the refs'
// after. This cuts out what the schema rejected until what is left parses: a
// rejected field is removed; a field that cannot be removed (required, or in
// a list) takes its eval, named rubric or dataset with it, and any eval that
// names what was taken goes too, so no check reports a ref as unknown only
// because its target was cut out.

type Suite = z.output<typeof SuiteSchema>;
type Json = Record<string | number, unknown>;

export interface SalvagedSuite {
  suite: Suite;
  /** A locator that takes the salvaged suite's paths (its evals renumbered) to the text. */
  locator: YamlLocator;
  /** The salvaged suite's path of an issue, as a path in the text's data. */
  originalPath(path: DataPath): DataPath;
}

const MAX_ROUNDS = 8;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

function stringsIn(value: unknown, out: Set<string>, depth = 0): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (isObject(value) && depth < 64)
    for (const v of Object.values(value)) stringsIn(v, out, depth + 1);
  return out;
}

export function salvageSuite(input: {
  data: unknown;
  issues: ConfigIssue[];
  locator: YamlLocator;
  file: string;
}): SalvagedSuite | undefined {
  if (!isObject(input.data) || Array.isArray(input.data) || !Array.isArray(input.data.evals))
    return undefined;
  // Copy on write: a node is copied the first time a cut passes through it, so the text's data is never changed.
  const owned = new WeakSet<object>();
  const own = <T extends object>(value: T): T => (owned.add(value), value);
  const work: Json = own({ ...input.data });
  // evals[j] came from the text's eval evalIndex[j].
  let evals: unknown[] = (input.data.evals as unknown[]).slice();
  let evalIndex = evals.map((_, i) => i);
  const removed = new Set<string>();
  /** Names whose definition was cut out: evals that mention them go too. */
  const gone = new Set<string>();
  const cut = (path: DataPath): boolean => {
    let node: Json = work;
    for (const segment of path.slice(0, -1)) {
      const child = node === work && segment === "evals" ? evals : node[segment];
      if (!isObject(child)) return false;
      const next: Json = owned.has(child)
        ? child
        : own(Array.isArray(child) ? ([...child] as unknown as Json) : { ...child });
      if (node === work && segment === "evals") evals = next as unknown as unknown[];
      else node[segment] = next;
      node = next;
    }
    const last = path[path.length - 1]!;
    if (Array.isArray(node) || !(last in node)) return false;
    delete node[last];
    return true;
  };
  const dropEntry = (map: "rubrics" | "datasets", name: string) => {
    const entries = work[map];
    if (isObject(entries)) {
      const copy = owned.has(entries) ? entries : own({ ...entries });
      delete copy[name];
      work[map] = copy;
    }
    gone.add(name);
  };
  /**
   * Drops the evals at `drop`, then every eval that names a dropped eval or a cut definition (one
   * pass over an index of names).
   */
  const dropEvals = (drop: Set<number>) => {
    const mentioning = new Map<string, number[]>();
    evals.forEach((e, j) => {
      for (const text of stringsIn(e, new Set()))
        mentioning.set(text, [...(mentioning.get(text) ?? []), j]);
    });
    const queue = [...gone];
    for (const j of drop) {
      const name = (evals[j] as Json | undefined)?.name;
      if (typeof name === "string") queue.push(name);
    }
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      gone.add(name);
      for (const j of mentioning.get(name) ?? []) {
        if (drop.has(j)) continue;
        drop.add(j);
        const evalName = (evals[j] as Json | undefined)?.name;
        if (typeof evalName === "string" && !gone.has(evalName)) queue.push(evalName);
      }
    }
    evalIndex = evalIndex.filter((_, j) => !drop.has(j));
    evals = evals.filter((_, j) => !drop.has(j));
  };

  let issues = input.issues;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const evalsToDrop = new Set<number>();
    for (const { path } of issues) {
      const key = JSON.stringify(path);
      const [top, second] = path;
      const definition = (top === "rubrics" || top === "datasets") && path.length === 2;
      if (!removed.has(key) && path.length > 1 && !definition && cut(path)) {
        removed.add(key);
        continue;
      }
      if (top === "evals" && typeof second === "number") evalsToDrop.add(second);
      else if ((top === "rubrics" || top === "datasets") && typeof second === "string")
        dropEntry(top, second);
      else if (
        path.length === 1 &&
        top !== "evals" &&
        typeof top === "string" &&
        !removed.has(key)
      ) {
        removed.add(key);
        delete work[top];
      } else return undefined;
    }
    dropEvals(evalsToDrop);
    if (evals.length === 0) return undefined;
    work.evals = evals;
    const parsed = SuiteSchema.safeParse(work);
    if (parsed.success) return { suite: parsed.data, ...remapped(input.locator, evalIndex) };
    issues = zodIssuesToConfigIssues({
      error: parsed.error,
      schema: SuiteSchema,
      data: work,
      locator: input.locator,
      file: input.file,
    });
  }
  return undefined;
}

function remapped(locator: YamlLocator, evalIndex: number[]): Omit<SalvagedSuite, "suite"> {
  const originalPath = (path: DataPath): DataPath =>
    path[0] === "evals" && typeof path[1] === "number"
      ? ["evals", evalIndex[path[1]] ?? path[1], ...path.slice(2)]
      : path;
  return {
    originalPath,
    locator: {
      // A getter: the fast path builds the `yaml` document only when something reads it.
      get doc() {
        return locator.doc;
      },
      locate: (path) => locator.locate(originalPath(path)),
      locateKey: (path, key) => locator.locateKey(originalPath(path), key),
    },
  };
}
