import { spawnSync } from "node:child_process";

// `bench:scale --store --made-folder`: a PGlite data folder made before the run it is timed for.
// Making one (PGlite's initdb) briefly runs three WebAssembly instances of Postgres at once and
// peaks at ~700 MB in a process of its own, once per folder: a user's first stored run (or the
// dashboard's first start) pays it, every later run opens the folder as it is. Made here in a
// process of its own, the peak RSS measured is the run's.

const PGLITE = import.meta.resolve("@electric-sql/pglite");

/** Makes the PGlite data folder `dataDir` (initdb) in a child process, and waits for it to exit. */
export function makePgliteFolder(dataDir: string): void {
  const script = `const { PGlite } = await import(${JSON.stringify(PGLITE)});
const db = await PGlite.create(${JSON.stringify(dataDir)});
await db.close();`;
  const made = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`making ${dataDir} failed: ${made.stderr.slice(-2000)}`);
}
