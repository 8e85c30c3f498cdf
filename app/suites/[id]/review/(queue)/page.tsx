import Link from "next/link";
import { notFound } from "next/navigation";
import styles from "@/components/results/results.module.css";
import { SuiteCrumbs } from "@/components/results/suite-crumbs";
import { ReviewQueueTable } from "@/components/review/review-queue-table";
import review from "@/components/review/review.module.css";
import { REVIEW_REASON_LABELS, REVIEW_REASONS } from "@/lib/engine/trust/people/needs-person";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { createReviewQueue } from "@/lib/store/review-queue";
import { pageSessionReviewer } from "../../../../api/review/reviewer";
import { runViews } from "../../../../runs/_lib/load";
import { parseQueueQuery, queueQueryString, storeFilter, toQueueRow } from "../query";

export const dynamic = "force-dynamic";
export const metadata = { title: "Review queue" };

export default async function ReviewQueuePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = parseQueueQuery(await searchParams);
  const suite = await (await runViews()).suite(id);
  if (!suite) notFound();
  const db = dashboardDatabase();
  if (!db.ok) throw new Error(db.message);
  const queue = createReviewQueue(db.prisma);
  const sessionName = await pageSessionReviewer();
  // With a login the server knows who reads: what they labelled already (a second opinion waiting
  // for someone else) is left out here; on loopback the table leaves it out in the browser.
  const [{ items, byReason }, all] = await Promise.all([
    queue.list({
      suiteId: id,
      ...storeFilter(query),
      ...(sessionName ? { reviewer: sessionName } : {}),
    }),
    queue.list({ suiteId: id }),
  ]);
  const evals = [...new Set(all.items.map((i) => i.evalName))].sort();
  const criteria = [
    ...new Set(
      all.items.filter((i) => !query.eval || i.evalName === query.eval).map((i) => i.criterion),
    ),
  ].sort();
  const total = Object.values(byReason).reduce((a, b) => a + (b ?? 0), 0);

  return (
    <div className={styles.page}>
      <SuiteCrumbs suiteId={id} suiteName={suite.name} trail={[{ label: "review" }]} />
      <h1 className={styles.title}>Review queue of {suite.name}</h1>
      <p className={styles.muted}>
        What the judges could not settle, for a person to label: reviews decided human_review,
        criteria the judges split on, calibration outliers, pairs judged with a position bias or
        uncertain, and results someone asked about. Labels added to the suite&apos;s dataset
        download as{" "}
        <a href={`/api/suites/${id}/dataset`} data-testid="dataset-download">
          ReferenceDataset JSON
        </a>
        .
      </p>
      <div className={review.chips} data-testid="reason-chips">
        <Link
          className={`${review.chip} ${query.reason ? "" : review.chipOn}`}
          href={`/suites/${id}/review${queueQueryString(query, { reason: undefined })}`}
        >
          all {total}
        </Link>
        {REVIEW_REASONS.filter((r) => byReason[r]).map((r) => (
          <Link
            key={r}
            className={`${review.chip} ${query.reason === r ? review.chipOn : ""}`}
            href={`/suites/${id}/review${queueQueryString(query, { reason: r })}`}
            data-testid="reason-chip"
            data-reason={r}
          >
            {REVIEW_REASON_LABELS[r]} {byReason[r]}
          </Link>
        ))}
      </div>
      <form className={styles.toolbar} method="get" data-testid="queue-filter">
        {query.reason ? <input type="hidden" name="reason" value={query.reason} /> : null}
        <label>
          Eval
          <select
            className={styles.input}
            name="eval"
            defaultValue={query.eval ?? ""}
            data-testid="filter-eval"
          >
            <option value="">all</option>
            {evals.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label>
          Criterion
          <select
            className={styles.input}
            name="criterion"
            defaultValue={query.criterion ?? ""}
            data-testid="filter-criterion"
          >
            <option value="">all</option>
            {criteria.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={styles.button} data-testid="filter-apply">
          Filter
        </button>
      </form>
      {items.length ? (
        <ReviewQueueTable
          suiteId={id}
          rows={items.map(toQueueRow)}
          sessionName={sessionName}
          query={queueQueryString(query)}
        />
      ) : (
        <div className={styles.empty} data-testid="queue-empty">
          Nothing waits for a person
          {query.reason || query.eval || query.criterion ? " under these filters" : ""}. Runs add
          what their judges could not settle when they finish.
        </div>
      )}
    </div>
  );
}
