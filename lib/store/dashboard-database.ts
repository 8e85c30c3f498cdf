import { readEnv } from "../env/read-env";
import { createPrismaClient, type PrismaClient } from "./connection";

// The dashboard's one Prisma client. `npm run dev` / `npm start`
// (scripts/serve.ts) start the database and hand Next its URL in
// DATABASE_URL; the client is kept on globalThis so that dev-mode reloads do
// not open a new pool each time (the embedded server allows 10 connections in
// all, shared with the in-process worker).

export type DashboardDatabase = { ok: true; prisma: PrismaClient } | { ok: false; message: string };

const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: PrismaClient };

export function dashboardDatabase(): DashboardDatabase {
  if (holder.__rubricStudioPrisma) return { ok: true, prisma: holder.__rubricStudioPrisma };
  const settings = readEnv();
  if (!settings.ok) return { ok: false, message: settings.message };
  if (!settings.value.databaseUrl) {
    return {
      ok: false,
      message: "No database: start the dashboard with `npm run dev` (or set DATABASE_URL).",
    };
  }
  holder.__rubricStudioPrisma = createPrismaClient(settings.value.databaseUrl, { max: 3 });
  return { ok: true, prisma: holder.__rubricStudioPrisma };
}
