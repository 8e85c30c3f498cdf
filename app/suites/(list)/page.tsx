import { createSuiteStore } from "../../../lib/store/suite-store";
import { dashboardDatabase } from "../../../lib/store/dashboard-database";
import { SuitesList, type SuiteRow } from "../../../components/authoring/suites-list";
import { ErrorState } from "../../../components/ui/states";
import { runOutcome } from "../../../components/results/run-outcome";

export const dynamic = "force-dynamic";
export const metadata = { title: "Suites" };

export default async function SuitesPage() {
  const db = dashboardDatabase();
  if (!db.ok) {
    return (
      <main className="page">
        <ErrorState title="The database is not available" message={db.message} />
      </main>
    );
  }
  const suites = await createSuiteStore(db.prisma).listSuites();
  const rows: SuiteRow[] = suites.map((s) => ({
    id: s.id,
    name: s.name,
    versions: s.versions,
    lastSavedAt: s.lastSavedAt?.toISOString() ?? null,
    lastRun: s.lastRun
      ? {
          id: s.lastRun.id,
          createdAt: s.lastRun.createdAt.toISOString(),
          ...runOutcome(s.lastRun.status, {
            passed: s.lastRun.passed,
            failed: s.lastRun.failed,
            judge_error: s.lastRun.judgeErrors,
            deferred: s.lastRun.deferred,
            skipped: s.lastRun.skipped,
          }),
        }
      : null,
  }));
  return (
    <main className="page">
      <SuitesList suites={rows} />
    </main>
  );
}
