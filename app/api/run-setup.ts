import type { NextResponse } from "next/server";
import { readEnv } from "../../lib/env/read-env";
import { dashboardProviders, type DashboardProviders } from "../../lib/judge/server-providers";
import type { PrismaClient } from "../../lib/store/connection";
import { errorResponse, withDatabase } from "./respond";

/** What a route that queues a run needs (Run, Re-grade with…): the database, its queue's URL, the server's judge and providers. */
export async function runSetup(): Promise<
  | {
      ok: true;
      prisma: PrismaClient;
      databaseUrl: string;
      judgeModel: string;
      providers: DashboardProviders;
    }
  | { ok: false; response: NextResponse }
> {
  const db = withDatabase();
  if (!db.ok) return db;
  const settings = readEnv();
  if (!settings.ok) return { ok: false, response: errorResponse("unavailable", settings.message) };
  if (!settings.value.databaseUrl)
    return {
      ok: false,
      response: errorResponse(
        "unavailable",
        "No database URL: start the dashboard with `npm run dev`.",
      ),
    };
  const providers = await dashboardProviders(settings.value);
  if (!providers.ok)
    return { ok: false, response: errorResponse("unavailable", providers.message) };
  return {
    ok: true,
    prisma: db.prisma,
    databaseUrl: settings.value.databaseUrl,
    judgeModel: settings.value.judgeModel,
    providers: providers.value,
  };
}
