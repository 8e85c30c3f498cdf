// Bundles the CLI into dist/cli/ and the dashboard's suite-checking worker
// thread into dist/offthread/ (npm install runs it as `prepare`, npm test as
// `pretest`). bin/rubric-studio.mjs and bin/suite-worker.mjs run a bundle when
// it is newer than every source file, and the TypeScript through tsx
// otherwise, so an edit never runs stale code; the bundle only saves the
// start-up cost of compiling on the fly.
import { build } from "esbuild";

const common = { bundle: true, format: "esm", platform: "node", target: "node20", packages: "external", sourcemap: true, outExtension: { ".js": ".mjs" }, logLevel: "warning" };

await build({ ...common, entryPoints: ["lib/cli/main.ts"], outdir: "dist/cli", splitting: true });
await build({ ...common, entryPoints: ["lib/offthread/suite-worker.ts"], outdir: "dist/offthread" });
