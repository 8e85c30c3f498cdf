// The entry of the embedded database's thread (lib/store/embedded-thread.ts starts it). Runs the
// bundle in dist/offthread (built with the CLI on install and before tests) when it is fresh, the
// TypeScript through tsx otherwise, as bin/suite-worker.mjs does.
import { runFreshOrSource } from "./fresh-bundle.mjs";

await runFreshOrSource("embedded-database-thread", "lib/store/embedded-database-thread.ts");
