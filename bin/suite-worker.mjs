// The entry of the dashboard's suite-checking worker threads
// (lib/offthread/suite-workers.ts starts them). Runs the bundle in
// dist/offthread (built with the CLI on install and before tests) when it is
// fresh, the TypeScript through tsx otherwise. A plain file outside Next's
// bundles, so that `next dev` and `next build && npm start` run the same thing.
import { runFreshOrSource } from "./fresh-bundle.mjs";

await runFreshOrSource("suite-worker", "lib/offthread/suite-worker.ts");
