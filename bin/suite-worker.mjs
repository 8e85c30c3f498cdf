// The entry of the dashboard's suite-checking worker threads
// (lib/offthread/suite-workers.ts starts them). Loads the bundle in
// dist/offthread (built with the CLI on install and before tests) when it is
// fresh, the TypeScript through tsx otherwise. A plain file outside Next's
// bundles, so that `next dev` and `next build && npm start` run the same thing.
import { fileURLToPath } from "node:url";
import { bundleIsFresh } from "./fresh-bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/offthread/suite-worker.mjs`;

if (bundleIsFresh(root, bundle)) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../lib/offthread/suite-worker.ts");
}
