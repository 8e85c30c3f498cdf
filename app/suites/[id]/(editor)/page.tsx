import { notFound } from "next/navigation";
import { createSuiteStore } from "../../../../lib/store/suite-store";
import { createRunViews } from "../../../../lib/store/run-views";
import { dashboardDatabase } from "../../../../lib/store/dashboard-database";
import { SuiteWorkspace } from "../../../../components/authoring/suite-workspace";
import { ErrorState } from "../../../../components/ui/states";
import { readEnv } from "../../../../lib/env/read-env";
import { dashboardProviders, serverCanJudge } from "../../../../lib/judge/server-providers";

export const metadata = { title: "Suite editor" };

export const dynamic = "force-dynamic";

export default async function SuitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const db = dashboardDatabase();
  if (!db.ok) {
    return (
      <main className="page">
        <ErrorState title="The database is not available" message={db.message} />
      </main>
    );
  }
  const suite = await createSuiteStore(db.prisma).getSuite(id);
  if (!suite) notFound();
  // Whether the server's providers can judge at all, known before the first edit (keys stay here);
  // a model whose provider has no key defers, anchor by anchor.
  const settings = readEnv();
  const providers = settings.ok ? await dashboardProviders(settings.value) : undefined;
  const judgeKey = providers?.ok === true && serverCanJudge(providers.value);
  // "Flips against run…" picks one of these (newest first); a run of another suite is refused by its route.
  const runs = await createRunViews(db.prisma).listRuns({ suiteId: id, limit: 50 });
  return (
    <SuiteWorkspace
      suite={{ id: suite.id, name: suite.name }}
      savedYaml={suite.latest?.yaml ?? ""}
      judgeKey={judgeKey}
      runs={runs.map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        status: r.status,
        version: r.version.number,
        ...(r.regradeOf ? { regradeOf: r.regradeOf } : {}),
      }))}
    />
  );
}
