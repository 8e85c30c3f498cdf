import type { RunRowView } from "@/components/results/runs-table";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { createRepeatStore } from "@/lib/store/repeat-store";
import { createPositionBiasViews } from "@/lib/store/position-bias";
import { createRunQueries } from "@/lib/store/run-queries";
import { createRunViews, type RunListItem } from "@/lib/store/run-views";

// Server-only glue for the results pages: the dashboard's one Prisma client
// wrapped in the store's read modules, and the store's rows mapped to the
// plain props the components take (dates as strings, so they can cross to
// client components). A missing database becomes the pages' error state.

function prisma() {
  const db = dashboardDatabase();
  if (!db.ok) throw new Error(db.message);
  return db.prisma;
}

export async function runViews() {
  return createRunViews(prisma());
}

/** `eval --repeat N --store` runs: their flip rates. */
export async function repeatViews() {
  return createRepeatStore(prisma());
}

export async function runQueries() {
  return createRunQueries(prisma());
}

/**
 * A URL segment decoded, or undefined when it cannot name anything: bad percent-encoding, or a NUL
 * (which Postgres text cannot hold).
 */
export function decodeSegment(raw: string): string | undefined {
  try {
    const decoded = decodeURIComponent(raw);
    return decoded.includes("\u0000") ? undefined : decoded;
  } catch {
    return undefined;
  }
}

export async function positionBiasViews() {
  return createPositionBiasViews(prisma());
}

export function toRunRow(run: RunListItem): RunRowView {
  return {
    id: run.id,
    suiteId: run.suiteId,
    suiteName: run.suiteName,
    status: run.status,
    startedBy: run.startedBy,
    createdAt: run.createdAt.toISOString(),
    counts: run.counts,
    costUsd: run.costUsd,
    unpricedCalls: run.unpricedCalls,
    version: run.version.number,
  };
}
