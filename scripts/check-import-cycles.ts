import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

// No import circles under lib/, type-only imports included (DESIGN.md, the
// dependency rule): `npm run lint` runs this after eslint. It resolves every
// import, re-export and import() with TypeScript's own module resolution
// (tsconfig paths such as "@/..." included) and reports each strongly
// connected group of files, so one run names every circle at once.

export interface ImportCycle {
  /** The files of one circle, relative to the root, sorted. */
  files: string[];
}

const SOURCE = /\.(ts|tsx|mts)$/;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "node_modules" ? [] : listSources(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function compilerOptionsOf(root: string): ts.CompilerOptions {
  const configPath = join(root, "tsconfig.json");
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error)
    return { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root).options;
}

/** The import graph of the files under `dirs` (edges only between those files). */
export function importGraph(options: { root: string; dirs: string[] }): Map<string, string[]> {
  const root = resolve(options.root);
  const compilerOptions = compilerOptionsOf(root);
  const files = options.dirs.flatMap((dir) => listSources(join(root, dir)));
  const inScope = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles.flatMap(({ fileName }) => {
      const resolved = ts.resolveModuleName(fileName, file, compilerOptions, ts.sys).resolvedModule
        ?.resolvedFileName;
      return resolved && inScope.has(resolve(resolved)) ? [resolve(resolved)] : [];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle in the graph (Tarjan's strongly connected components of more than one file, or a file importing itself). */
export function findImportCycles(options: { root: string; dirs: string[] }): ImportCycle[] {
  const root = resolve(options.root);
  const graph = importGraph(options);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: ImportCycle[] = [];
  let next = 0;

  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      if (group.length > 1 || edges.includes(frame.node)) {
        cycles.push({ files: group.map((f) => relative(root, f)).sort() });
      }
    }
  }
  return cycles;
}

function main(): void {
  const cycles = findImportCycles({ root: process.cwd(), dirs: ["lib"] });
  for (const cycle of cycles) {
    console.error(`import circle of ${cycle.files.length} files:\n  ${cycle.files.join("\n  ")}`);
  }
  if (cycles.length > 0) {
    console.error(
      `\n${cycles.length} import circle(s) under lib/. Move the shared types into a leaf module that both sides import.`,
    );
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname))
  main();
