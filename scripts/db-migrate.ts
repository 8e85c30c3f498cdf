// `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or
// to the embedded database in .data/pglite. Offline; safe to run twice.
import { withAdapter } from "../lib/store/connection";
import { findEmbeddedServer } from "../lib/store/embedded-postgres";
import { startEmbeddedServer } from "../lib/store/embedded-thread";
import { DEFAULT_DATA_DIR } from "../lib/store/open-database";
import { applyMigrations } from "../lib/store/schema-engine";
import { readEnv } from "../lib/env/read-env";

const settings = readEnv();
if (!settings.ok) {
  console.error(settings.message);
  process.exit(2);
}
const dataDir = settings.value.dataDir ?? DEFAULT_DATA_DIR;
const owned =
  settings.value.databaseUrl || (await findEmbeddedServer(dataDir))
    ? undefined
    : await startEmbeddedServer({ dataDir });
const url = settings.value.databaseUrl ?? (await findEmbeddedServer(dataDir)) ?? owned!.url;
const applied = await withAdapter(url, applyMigrations);
console.log(
  applied.length
    ? `applied ${applied.length} migration(s): ${applied.join(", ")}`
    : "the database is up to date",
);
await owned?.stop();
process.exit(0);
