import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findImportCycles } from "../../scripts/check-import-cycles";

// No import circles under lib/, type-only imports included (DESIGN.md):
// `npm run lint` runs scripts/check-import-cycles.ts after eslint. These
// tests prove the check bites on each way a circle can be written, and that
// lib/ as it stands has none.

const repo = new URL("../..", import.meta.url).pathname;
const root = mkdtempSync(path.join(tmpdir(), "import-cycles-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let project = 0;
function projectOf(files: Record<string, string>): string {
  const dir = path.join(root, `p${project++}`);
  const all = {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } },
    }),
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe("the import-cycle check", () => {
  it.each([
    [
      "type-only imports",
      {
        "lib/a.ts": 'import type { B } from "./b";\nexport type A = { b: B };',
        "lib/b.ts": 'import type { A } from "./a";\nexport type B = { a?: A };',
      },
    ],
    [
      "a type re-export",
      {
        "lib/a.ts": 'export type { B } from "./sub/b";\nexport type A = 1;',
        "lib/sub/b.ts": 'import type { A } from "../a";\nexport type B = A;',
      },
    ],
    [
      "the @/ path alias",
      {
        "lib/a.ts": 'import { b } from "@/lib/b";\nexport const a = b;',
        "lib/b.ts": 'import type { A } from "../lib/a";\nexport const b = 1 as unknown as A;',
      },
    ],
    [
      "a dynamic import()",
      {
        "lib/a.ts": 'export const load = () => import("./b");',
        "lib/b.ts": 'import { load } from "./a";\nexport const b = load;',
      },
    ],
  ])("finds a circle written with %s", (_how, files) => {
    const cycles = findImportCycles({ root: projectOf(files), dirs: ["lib"] });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.files).toHaveLength(2);
  });

  it("names every file of a longer circle once, and leaves out the files that only hang on it", () => {
    const dir = projectOf({
      "lib/report.ts":
        'import type { Agreement } from "./agreement/judge-agreement";\nexport interface Report { agreement: Agreement }',
      "lib/agreement/judge-agreement.ts":
        'import type { Result } from "../grade";\nexport type Agreement = Result[];',
      "lib/grade.ts":
        'import type { Report } from "./report";\nexport type Result = Report["agreement"];',
      "lib/cli/main.ts":
        'import type { Report } from "../report";\nexport const show = (r: Report) => r;',
    });
    expect(findImportCycles({ root: dir, dirs: ["lib"] })).toEqual([
      { files: ["lib/agreement/judge-agreement.ts", "lib/grade.ts", "lib/report.ts"] },
    ]);
  });

  it("finds a file that imports itself, and nothing in a tree without circles", () => {
    expect(
      findImportCycles({ root: projectOf({ "lib/a.ts": 'import "./a";' }), dirs: ["lib"] }),
    ).toEqual([{ files: ["lib/a.ts"] }]);
    const tree = projectOf({
      "lib/leaf.ts": "export type L = 1;",
      "lib/a.ts": 'import type { L } from "./leaf";\nexport type A = L;',
      "lib/b.ts":
        'import type { A } from "./a";\nimport type { L } from "./leaf";\nexport type B = [A, L];',
    });
    expect(findImportCycles({ root: tree, dirs: ["lib"] })).toEqual([]);
  });

  it("holds for the whole of lib/, with no exceptions", () => {
    expect(findImportCycles({ root: repo, dirs: ["lib"] })).toEqual([]);
  });

  it("runs with npm run lint", () => {
    const pkg = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.lint).toContain("scripts/check-import-cycles.ts");
  });
});
