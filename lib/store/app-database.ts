import path from "node:path";
import { readEnv } from "../env/read-env";
import { createPrismaClient, type PrismaClient } from "./connection";
import { findEmbeddedServer } from "./embedded-postgres";

// The dashboard's one Prisma client (server-only: components never import
// lib/store, which ESLint enforces). `npm run dev` / `npm start` set
// DATABASE_URL to the database they serve and migrate it, so Next itself
// never starts or migrates a database; without it (a bare `next dev`) we look
// for the embedded server another process already runs on the data folder.

// Kept on globalThis so that dev-mode module reloads reuse one pool instead of
// opening a new one per edit (the embedded server allows few connections).
const holder = globalThis as unknown as { __rubricStudioPrisma?: Promise<PrismaClient> };

async function connect(): Promise<PrismaClient> {
  const settings = readEnv();
  if (!settings.ok) throw new Error(settings.message);
  const url = settings.value.databaseUrl ?? (await findEmbeddedServer(settings.value.dataDir ?? path.resolve(process.cwd(), ".data/pglite")));
  if (!url) throw new Error("no database: start the dashboard with `npm run dev` (or set DATABASE_URL)");
  return createPrismaClient(url, { max: 4 });
}

/** The app's Prisma client, created on first use. A failed connection attempt is retried on the next call. */
export function appDatabase(): Promise<PrismaClient> {
  if (!holder.__rubricStudioPrisma) {
    holder.__rubricStudioPrisma = connect().catch((error: unknown) => {
      holder.__rubricStudioPrisma = undefined;
      throw error;
    });
  }
  return holder.__rubricStudioPrisma;
}
