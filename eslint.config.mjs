import path from "node:path";
import tseslint from "typescript-eslint";

// The dependency rule of DESIGN.md, checked on every `npm test`:
//   app -> components, lib/*;  lib/cli, store, judge, live, report -> lib/engine -> lib/config.
// lib/engine and lib/config stay pure: no framework, database, SDK or fs, no environment.

const frameworkAndIo = [
  { name: "next", message: "lib/engine and lib/config are pure: no Next.js." },
  { name: "react", message: "lib/engine and lib/config are pure: no React." },
  { name: "react-dom", message: "lib/engine and lib/config are pure: no React." },
  {
    name: "@prisma/client",
    message: "lib/engine and lib/config reach the store only through ports.",
  },
  {
    name: "@anthropic-ai/sdk",
    message: "lib/engine and lib/config reach the judge only through the judge port.",
  },
  { name: "node:fs", message: "lib/engine and lib/config do no I/O: pass text in." },
  { name: "fs", message: "lib/engine and lib/config do no I/O: pass text in." },
  { name: "node:fs/promises", message: "lib/engine and lib/config do no I/O: pass text in." },
  { name: "fs/promises", message: "lib/engine and lib/config do no I/O: pass text in." },
  { name: "node:child_process", message: "lib/engine and lib/config do no I/O." },
  { name: "pg-boss", message: "lib/engine and lib/config reach the store only through ports." },
];
const frameworkPatterns = [
  {
    group: [
      "next/*",
      "react/*",
      "react-dom/*",
      "@prisma/*",
      "@anthropic-ai/*",
      "@modelcontextprotocol/*",
    ],
    message: "lib/engine and lib/config are pure.",
  },
];
const noApp = { group: ["**/app/**", "@/app/**", "@/app"], message: "Nothing imports from app/." };
// A relative import of lib/<m> from any depth of a folder under lib/ (lib/engine/grade/x.ts reaches lib/store as ../../store).
const upTo = (m) =>
  [1, 2, 3, 4].flatMap((depth) => [`${"../".repeat(depth)}${m}`, `${"../".repeat(depth)}${m}/**`]);
const outerLib = ["cli", "store", "judge", "live", "report", "env", "access"].map((m) => ({
  group: [`**/lib/${m}`, `**/lib/${m}/**`, ...upTo(m), `@/lib/${m}`, `@/lib/${m}/**`],
  message: `lib/engine and lib/config must not import lib/${m} (arrows point one way).`,
}));
const engineFromConfig = {
  group: [
    "**/lib/engine",
    "**/lib/engine/**",
    ...upTo("engine"),
    "@/lib/engine",
    "@/lib/engine/**",
  ],
  message: "lib/config must not import lib/engine (engine -> config, not back).",
};
// lib/live may use the engine, the config, the MCP and Anthropic SDKs and
// Node; the judge's retrying sender reaches it through its deps (a structural
// type), so it imports no sibling adapter.
const liveSiblings = ["cli", "store", "judge", "report", "env", "access"].map((m) => ({
  group: [`**/lib/${m}`, `**/lib/${m}/**`, ...upTo(m), `@/lib/${m}`, `@/lib/${m}/**`],
  message: `lib/live must not import lib/${m}: it gets what it needs through its deps.`,
}));
const statsLeaf = {
  group: [
    "**/lib/config",
    "**/lib/config/**",
    ...upTo("config"),
    "@/lib/config",
    "@/lib/config/**",
    "**/lib/engine",
    "**/lib/engine/**",
    ...upTo("engine"),
  ],
  message: "lib/stats is a leaf: it imports nothing else of lib/.",
};
// The CLI is an edge like the dashboard: nothing but the CLI itself (and the
// scripts that start the server) imports lib/cli. A policy both edges need
// (e.g. the MCP allow-list) lives in the layer it belongs to.
const cliGroup = ["**/lib/cli", "**/lib/cli/**", ...upTo("cli"), "@/lib/cli", "@/lib/cli/**"];
const noCliFromApp = {
  group: cliGroup,
  message:
    "app/ must not import lib/cli: the dashboard does not reach into the CLI. Move what both need into the layer it belongs to (lib/live, lib/engine...).",
};
const noCliFromLib = {
  group: cliGroup,
  message: "Nothing in lib/ imports lib/cli but the CLI itself.",
};
const serverOnlyLib = ["cli", "store", "judge", "live", "env", "access"].map((m) => ({
  group: [`**/lib/${m}`, `**/lib/${m}/**`, `@/lib/${m}`, `@/lib/${m}/**`],
  message: `components/ never import server code (lib/${m}).`,
}));

// A regular expression built from data (a suite's text, a request) runs on
// V8's backtracking engine, where one pattern can stall the server for
// minutes: `when.regex` goes through RE2 (lib/config/when-regex.ts), and a
// search is a value (ILIKE), never a pattern. Patterns written in the code are fine.
const NOT_WRITTEN = "[arguments.0.type!=/^(Literal|TemplateLiteral|TaggedTemplateExpression)$/]";
const noDataRegExp = ["NewExpression", "CallExpression"].map((node) => ({
  selector: `${node}[callee.name="RegExp"]${NOT_WRITTEN}`,
  message:
    "No RegExp from data here: a backtracking pattern can stall the server. Use RE2 (compileWhenRegex) or match the text as a value.",
}));

// lib/engine's folders are a stack (lib/engine/README.md): each imports only
// the folders below it, type-only imports included, so the tree reads bottom
// up and no stage reaches back into a later one. Folders on one line are
// siblings and import neither each other. "." is the engine's own top level
// (run-suite.ts and the runs built on it). A folder not listed here is
// reported until it is given its place.
export const ENGINE_LAYERS = [
  ["ports"],
  ["results"],
  ["cost"],
  ["grade"],
  ["combine"],
  ["review", "pairwise"],
  ["plan"],
  ["cell", "trust"],
  ["."],
];
const ENGINE = path.join(import.meta.dirname, "lib", "engine");
const layerOf = new Map(ENGINE_LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank])));
const stackText = ENGINE_LAYERS.map((folders) =>
  folders.map((f) => (f === "." ? "the top level" : f)).join(", "),
).join(" → ");

/** The engine folder ("." for its top level) a path under lib/engine is in, or undefined outside it. */
function engineFolderOf(file) {
  const rel = path.relative(ENGINE, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  const [first, ...rest] = rel.split(path.sep);
  return rest.length > 0 || layerOf.has(first) ? first : ".";
}

const engineStack = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const from = engineFolderOf(context.filename);
    if (from === undefined) return {};
    const check = (source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const spec = source.value;
      const target = spec.startsWith(".")
        ? path.resolve(path.dirname(context.filename), spec)
        : spec.startsWith("@/")
          ? path.join(import.meta.dirname, spec.slice(2))
          : undefined;
      const to = target && engineFolderOf(target);
      if (to === undefined || to === from) return;
      const [a, b] = [layerOf.get(from), layerOf.get(to)];
      const where = (f) => (f === "." ? "lib/engine's top level" : `lib/engine/${f}`);
      if (a === undefined || b === undefined) {
        const missing = a === undefined ? from : to;
        context.report({
          node: source,
          message: `${where(missing)} has no place in the engine's stack: add it to ENGINE_LAYERS in eslint.config.mjs (${stackText}).`,
        });
      } else if (b >= a) {
        context.report({
          node: source,
          message: `${where(from)} must not import ${where(to)}: the engine's folders are a stack (${stackText}), each importing only the folders below it. Move what both need down.`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "coverage/**",
      "next-env.d.ts",
      "public/**",
      ".data/**",
      "test/fixtures/**",
      "lib/store/generated/**",
      "dist/**",
      ".bench/**",
      "scratch/**",
    ],
  },
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { ecmaVersion: "latest", sourceType: "module" },
    },
    rules: { "no-restricted-imports": ["error", { patterns: [noApp] }] },
  },
  {
    files: ["lib/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: frameworkAndIo, patterns: [...frameworkPatterns, noApp, ...outerLib] },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment once, in lib/env; pass values in.",
        },
      ],
    },
  },
  {
    files: ["lib/engine/**/*.ts"],
    plugins: { engine: { rules: { stack: engineStack } } },
    rules: { "engine/stack": "error" },
  },
  {
    files: ["lib/config/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: frameworkAndIo,
          patterns: [...frameworkPatterns, noApp, ...outerLib, engineFromConfig],
        },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment once, in lib/env; pass values in.",
        },
      ],
    },
  },
  {
    files: ["lib/live/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: frameworkAndIo.filter(
            (p) =>
              p.name !== "@anthropic-ai/sdk" &&
              !p.name.includes("fs") &&
              p.name !== "node:child_process",
          ),
          patterns: [
            noApp,
            ...liveSiblings,
            {
              group: ["next/*", "react/*", "@prisma/*"],
              message: "lib/live runs agents; no framework or database.",
            },
          ],
        },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment once, in lib/env; pass values in.",
        },
      ],
    },
  },
  {
    // lib/stats is a pure leaf: statistics over plain numbers, importing nothing else of lib/.
    files: ["lib/stats/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: frameworkAndIo, patterns: [...frameworkPatterns, noApp, ...outerLib, statsLeaf] },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment once, in lib/env; pass values in.",
        },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [noApp, noCliFromApp] }] },
  },
  {
    files: [
      "lib/store/**/*.ts",
      "lib/judge/**/*.ts",
      "lib/report/**/*.ts",
      "lib/env/**/*.ts",
      "lib/access/**/*.ts",
      "lib/offthread/**/*.ts",
    ],
    rules: { "no-restricted-imports": ["error", { patterns: [noApp, noCliFromLib] }] },
  },
  {
    files: ["lib/engine/**/*.ts", "lib/config/**/*.ts", "app/**/*.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...noDataRegExp] },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            noApp,
            ...serverOnlyLib,
            {
              group: ["@prisma/*", "@anthropic-ai/*"],
              message: "components/ never import server code.",
            },
          ],
        },
      ],
    },
  },
  {
    // Request URLs name the address the server listens on (http://0.0.0.0:3000 under --host 0.0.0.0), not the one the browser asked for.
    files: ["app/**/*.{ts,tsx}", "lib/access/**/*.ts", "proxy.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "NextResponse",
          property: "redirect",
          message:
            "Redirect with redirectTo (lib/access/request-address.ts), which goes to the browser's own address.",
        },
      ],
    },
  },
);
