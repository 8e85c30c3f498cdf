import path from "node:path";
import { createPrismaClient, withAdapter, type PrismaClient } from "./connection";
import { findEmbeddedServer, type EmbeddedServer } from "./embedded-postgres";
import { startEmbeddedServer } from "./embedded-thread";
import { applyMigrations } from "./schema-engine";

/** `.data/pglite` in the project: where the dashboard and the CLI share their embedded database. */
export const DEFAULT_DATA_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  "../../.data/pglite",
);

export interface Database {
  url: string;
  prisma: PrismaClient;
  /** "url": DATABASE_URL; "shared": an embedded server another process runs; "owned": one this process started. */
  source: "url" | "shared" | "owned";
  close(): Promise<void>;
}

/**
 * Opens the run-history database: DATABASE_URL when set, else the embedded
 * server already serving the data folder, else one started here. Migrations
 * are applied (a no-op on an up-to-date database) by whoever owns the server.
 */
export async function openDatabase(input: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  migrate?: boolean;
}): Promise<Database> {
  let owned: EmbeddedServer | undefined;
  let url = input.databaseUrl;
  let source: Database["source"] = "url";
  if (!url) {
    const dataDir = input.dataDir ?? DEFAULT_DATA_DIR;
    url = await findEmbeddedServer(dataDir);
    source = "shared";
    if (!url) {
      owned = await startEmbeddedServer({ dataDir, migrate: input.migrate !== false });
      url = owned.url;
      source = "owned";
    }
  }
  // The embedded server's owner has migrated it (see startEmbeddedServer);
  // a real Postgres serialises concurrent migrations with an advisory lock.
  if (source === "url" && input.migrate !== false) await withAdapter(url, applyMigrations);
  const prisma = createPrismaClient(url, { max: input.poolSize });
  return {
    url,
    prisma,
    source,
    async close() {
      await prisma.$disconnect();
      await owned?.stop();
    },
  };
}
