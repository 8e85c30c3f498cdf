// Bundles the CLI into dist/cli/, and the dashboard's suite-checking worker
// thread and the embedded database's thread into dist/offthread/ (npm install
// runs it as `prepare`, npm test as `pretest`). bin/rubric-studio.mjs,
// bin/suite-worker.mjs and bin/embedded-database.mjs run a bundle when
// it is newer than every source file, and the TypeScript through tsx
// otherwise, so an edit never runs stale code; the bundle only saves the
// start-up cost of compiling on the fly.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
};

// The packages every `eval` and `validate` runs, bundled into the CLI with
// what they import: one file read and compiled is much cheaper than a package
// of a hundred modules resolved one by one (the Anthropic SDK: ~20 ms against
// ~65 ms). Every other package (Prisma, pg, PGlite, pg-boss, the MCP SDK, the
// openai SDK) stays in node_modules and loads only on the commands and runs
// that use it.
const HOT_PACKAGES = new Set(["@anthropic-ai/sdk", "yaml", "js-yaml", "zod", "commander", "re2js"]);
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
const bundleHotPackages = {
  name: "bundle-hot-packages",
  setup(pluginBuild) {
    // Only imports from the project's own files decide; what a bundled package imports is bundled with it.
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.importer.includes("/node_modules/") || args.kind === "entry-point") return undefined;
      return HOT_PACKAGES.has(packageOf(args.path))
        ? undefined
        : { path: args.path, external: true };
    });
  },
};

// Chunk names change with their content: a stale chunk left from an earlier build would only take space.
rmSync("dist/cli", { recursive: true, force: true });
// A bundled CommonJS package (yaml's Node build) may require() Node's own modules: the ESM chunks get a require.
const requireBanner =
  'import { createRequire as __cliCreateRequire } from "node:module"; const require = __cliCreateRequire(import.meta.url);';
// Whitespace and syntax minified, names kept: a third fewer bytes to read,
// decode and hash at every start (~17 ms less before the first judge call of
// a 600-call eval), while stack traces still name the functions.
await build({
  ...common,
  entryPoints: ["lib/cli/main.ts"],
  outdir: "dist/cli",
  splitting: true,
  plugins: [bundleHotPackages],
  banner: { js: requireBanner },
  minifyWhitespace: true,
  minifySyntax: true,
});
await build({
  ...common,
  packages: "external",
  entryPoints: ["lib/offthread/suite-worker.ts"],
  outdir: "dist/offthread",
});
// The embedded database's thread (lib/store/embedded-thread.ts), beside it.
await build({
  ...common,
  packages: "external",
  entryPoints: ["lib/store/embedded-database-thread.ts"],
  outdir: "dist/offthread",
});
