// The entry of the embedded database's thread (lib/store/embedded-thread.ts starts it). Loads the
// bundle in dist/offthread (built with the CLI on install and before tests) when it is fresh, the
// TypeScript through tsx otherwise, as bin/suite-worker.mjs does.
import { fileURLToPath } from "node:url";
import { bundleIsFresh } from "./fresh-bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/offthread/embedded-database-thread.mjs`;

if (bundleIsFresh(root, bundle)) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../lib/store/embedded-database-thread.ts");
}
