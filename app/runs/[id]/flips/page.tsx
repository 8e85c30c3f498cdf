import Link from "next/link";
import { notFound } from "next/navigation";
import { changedCount, flipCountsText } from "@/components/results/flip-counts";
import { FlipList } from "@/components/results/flip-list";
import styles from "@/components/results/results.module.css";
import { FLIPS_PAGE_SIZE, type FlipFilter } from "@/lib/store/regrade-views";
import { regradeViews, runViews } from "../../_lib/load";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Flips · run ${(await params).id.slice(0, 8)}` };
}

export const dynamic = "force-dynamic";

const one = (value: string | string[] | undefined) =>
  typeof value === "string" && value.length > 0 && value.length <= 1000 && !value.includes("\u0000")
    ? value
    : undefined;
/** A page's cursor (base64url; the store checks what is inside). */
const cursor = (value: string | string[] | undefined) =>
  typeof value === "string" && value.length <= 8000 && /^[A-Za-z0-9_-]+$/.test(value)
    ? value
    : undefined;

/** A regrade's flips (passed → failed, failed → passed, a criterion's either way), then its other moves, both verdicts side by side. */
export default async function FlipsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const search = await searchParams;
  const filter: FlipFilter = {
    ...(one(search.eval) ? { eval: one(search.eval) } : {}),
    ...(one(search.agent) ? { agent: one(search.agent) } : {}),
  };
  // Keyset pages: after a page's last change, or before its first (none: the first page).
  const after = cursor(search.after);
  const before = after ? undefined : cursor(search.before);
  const views = await regradeViews();
  const [run, source] = await Promise.all([(await runViews()).runOverview(id), views.sourceOf(id)]);
  if (!run) notFound();
  const [counts, flips, options] = source
    ? await Promise.all([
        views.flipCounts({ runId: id, filter }),
        views.flipPage({
          runId: id,
          filter,
          ...(after ? { after } : {}),
          ...(before ? { before } : {}),
        }),
        views.flipFilters(id),
      ])
    : [undefined, undefined, { evals: [], agents: [] }];
  const pairs = flips?.pairs ?? [];
  const changed = counts ? changedCount(counts) : 0;
  const href = (to: { after: string } | { before: string }) => {
    const q = new URLSearchParams({
      ...(filter.eval ? { eval: filter.eval } : {}),
      ...(filter.agent ? { agent: filter.agent } : {}),
      ...to,
    });
    return `/runs/${id}/flips?${q.toString()}`;
  };
  const pageNumber = Math.floor((flips?.firstIndex ?? 0) / FLIPS_PAGE_SIZE) + 1;

  return (
    <div className={styles.page}>
      <div className={styles.crumbs}>
        <Link href="/runs">Runs</Link> / <Link href={`/runs/${id}`}>{run.suiteName}</Link> / flips
      </div>
      <h1 className={styles.title}>What flipped</h1>
      {!source || !counts ? (
        <div className={styles.empty} data-testid="flips-not-regrade">
          This run is not a re-grade of a stored run (or its source is no longer stored): its run
          page&apos;s <em>Re-grade with…</em> makes one.
        </div>
      ) : (
        <>
          <p>
            Re-grade of{" "}
            <Link href={`/runs/${source.id}`} data-testid="flips-source">
              run {source.id.slice(0, 8)}
            </Link>{" "}
            (v{source.versionNumber}) by <Link href={`/runs/${id}`}>run {id.slice(0, 8)}</Link>:
            each result beside its verdict in the source, flips first.
          </p>
          <p data-testid="flip-counts">
            <strong>{flipCountsText(counts)}</strong>
          </p>
          {options.evals.length > 1 || options.agents.length > 1 ? (
            <form className={styles.toolbar} method="get" aria-label="Filter the flips">
              {options.evals.length > 1 ? (
                <label>
                  Eval
                  <select className={styles.input} name="eval" defaultValue={filter.eval ?? ""}>
                    <option value="">every eval</option>
                    {options.evals.map((e) => (
                      <option key={e} value={e}>
                        {e}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              {options.agents.length > 1 ? (
                <label>
                  Candidate model
                  <select className={styles.input} name="agent" defaultValue={filter.agent ?? ""}>
                    <option value="">every model</option>
                    {options.agents.map((a) => (
                      <option key={a} value={a}>
                        {a}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <button className={styles.button} type="submit">
                Filter
              </button>
            </form>
          ) : null}
          {changed === 0 ? (
            <div className={styles.empty} data-testid="flips-empty">
              Nothing flipped and no score moved: every re-graded result and each of its criteria
              has the verdict it had.
            </div>
          ) : (
            <FlipList pairs={pairs} runId={id} sourceRunId={source.id} />
          )}
          {changed > FLIPS_PAGE_SIZE && flips ? (
            <div className={styles.pager} data-testid="flips-pager">
              {flips.prevCursor ? (
                <Link href={href({ before: flips.prevCursor })}>← previous</Link>
              ) : null}
              <span>
                page {pageNumber} of {Math.ceil(changed / FLIPS_PAGE_SIZE)}
              </span>
              {flips.nextCursor ? (
                <Link href={href({ after: flips.nextCursor })}>next →</Link>
              ) : null}
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
