// Bundles the CLI into dist/cli/ (npm install runs it as `prepare`, npm test
// as `pretest`). The bin runs the bundle when it is newer than every source
// file, and the TypeScript through tsx otherwise, so an edit never runs stale
// code; the bundle only saves the start-up cost of compiling on the fly.
import { build } from "esbuild";

await build({
  entryPoints: ["lib/cli/main.ts"],
  outdir: "dist/cli",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
