import { notFound } from "next/navigation";
import * as z from "zod";
import { DiffView } from "@/components/authoring/diff-view";
import { diffLines, withContext } from "@/components/authoring/line-diff";
import { formatTime } from "@/components/results/format";
import styles from "@/components/results/results.module.css";
import { historyCrumb, SuiteCrumbs } from "@/components/results/suite-crumbs";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { createSuiteStore } from "@/lib/store/suite-store";

export const metadata = { title: "Version diff" };

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ from: z.uuid(), to: z.uuid() });

/**
 * Two saved versions of a suite, diffed at the page's full width: where a
 * suite's history links when two compared runs graded different versions.
 */
export default async function SuiteDiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = QuerySchema.safeParse(await searchParams);
  const db = dashboardDatabase();
  if (!db.ok) throw new Error(db.message);
  const store = createSuiteStore(db.prisma);
  const suite = await store.getSuite(id);
  if (!suite) notFound();
  const versions = await store.listVersions(id);
  const numberOf = (versionId: string) =>
    versions.ok ? versions.value.length - versions.value.findIndex((v) => v.id === versionId) : 0;
  const pair = query.success
    ? await store.getVersionPair({ suiteId: id, from: query.data.from, to: query.data.to })
    : undefined;
  const rows = pair?.ok ? withContext(diffLines(pair.value.from.yaml, pair.value.to.yaml)) : [];

  return (
    <div className={styles.page} style={{ maxWidth: "none" }}>
      <SuiteCrumbs
        suiteId={id}
        suiteName={suite.name}
        trail={[historyCrumb(id), { label: "diff" }]}
      />
      {pair?.ok ? (
        <>
          <h1 className={styles.title} data-testid="diff-title">
            {suite.name}: v{numberOf(pair.value.from.id)} → v{numberOf(pair.value.to.id)}
          </h1>
          <p className={styles.muted}>
            Saved {formatTime(pair.value.from.createdAt)} and {formatTime(pair.value.to.createdAt)}.
          </p>
          {rows.every((r) => r.kind === "gap") ? (
            <p className={styles.muted}>The two versions are identical.</p>
          ) : (
            <DiffView rows={rows} full />
          )}
        </>
      ) : (
        <>
          <h1 className={styles.title}>Compare versions of {suite.name}</h1>
          <div className={styles.error} role="alert">
            {pair && !pair.ok
              ? pair.message
              : "Name two versions of this suite: ?from=<version id>&to=<version id>."}
          </div>
        </>
      )}
    </div>
  );
}
