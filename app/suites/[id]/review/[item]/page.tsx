import Link from "next/link";
import { notFound } from "next/navigation";
import styles from "@/components/results/results.module.css";
import { SuiteCrumbs } from "@/components/results/suite-crumbs";
import { LabelForm } from "@/components/review/label-form";
import review from "@/components/review/review.module.css";
import { REVIEW_REASON_LABELS } from "@/lib/engine/trust/people/needs-person";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { labelPageSubject } from "@/lib/store/human-labels";
import { suiteWorkers } from "@/lib/offthread/suite-workers";
import { CLAIM_LEASE_MS, createReviewQueue } from "@/lib/store/review-queue";
import { pageSessionReviewer } from "../../../../api/review/reviewer";
import { runViews } from "../../../../runs/_lib/load";
import { parseQueueQuery, queueQueryString, storeFilter } from "../query";

export const dynamic = "force-dynamic";
export const metadata = { title: "Label an item" };

/**
 * Items J may go to, in queue order: enough that a person's own labelled items ahead of them do not
 * leave J with none.
 */
const NEXT_ITEMS = 200;

export default async function LabelPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; item: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, item: itemId } = await params;
  const query = parseQueueQuery(await searchParams);
  const db = dashboardDatabase();
  if (!db.ok) throw new Error(db.message);
  const queue = createReviewQueue(db.prisma);
  const [suite, item] = await Promise.all([(await runViews()).suite(id), queue.get(itemId)]);
  if (!suite || !item || item.suiteId !== id) notFound();
  // An item waiting for its second opinion shows neither the first label nor the verdicts: the
  // second person answers unanchored.
  const label =
    item.state === "labelled"
      ? await db.prisma.humanLabel.findFirst({
          where: { reviewItemId: item.id },
          orderBy: { createdAt: "desc" },
          select: { id: true, reviewer: true, value: true, note: true },
        })
      : null;
  const [subject, queued, sessionName] = await Promise.all([
    // The verdicts go to the browser only once this item has its label. The suite's text came from
    // a browser: loaded on a worker thread, under a time limit.
    labelPageSubject(
      db.prisma,
      item,
      (input) => suiteWorkers().run({ kind: "load", ...input }),
      label !== null,
    ),
    queue.list({ suiteId: id, ...storeFilter(query), state: "all" }),
    pageSessionReviewer(),
  ]);
  if (!subject) notFound();
  // J goes on to the next item of the filtered queue still waiting for a label, and one this person has not labelled
  // (an item open for its second opinion is another person's): the form picks it, since on loopback only the
  // browser knows the reviewer's name. K goes back the same way, to the nearest such item before this one.
  const all = queued.items;
  const at = all.findIndex((i) => i.id === item.id);
  const href = (other: { id: string }) =>
    `/suites/${id}/review/${other.id}${queueQueryString(query)}`;
  const waiting = (items: typeof all) =>
    items
      .filter((i) => i.state !== "labelled" && i.id !== item.id)
      .slice(0, NEXT_ITEMS)
      .map((i) => ({ href: href(i), labelledBy: i.labelledBy }));
  const before = all.slice(0, Math.max(at, 0));
  const after = all.slice(at + 1);
  const nextItems = waiting([...after, ...before]);
  const prevItems = waiting([...before].reverse().concat([...after].reverse()));
  // A claim past its lease is nobody's: anyone may take it over.
  const claimedBy =
    item.state === "claimed" &&
    item.claimedAt &&
    Date.now() - item.claimedAt.getTime() < CLAIM_LEASE_MS
      ? item.claimedBy
      : null;

  return (
    <div className={styles.page}>
      <SuiteCrumbs
        suiteId={id}
        suiteName={suite.name}
        trail={[
          { label: "review", href: `/suites/${id}/review${queueQueryString(query)}` },
          { label: item.criterion },
        ]}
      />
      <p className={styles.muted}>
        <Link href={`/suites/${id}/review${queueQueryString(query)}`} data-testid="back-to-queue">
          ← Back to the queue
        </Link>
      </p>
      <h1 className={styles.title} data-testid="label-title">
        {item.evalName}: {item.criterion}
      </h1>
      {/* Why it is here, never what the judges said: the detail is neutral, and the link to the result (which shows their verdicts) comes with the saved label. */}
      <p>
        <span className={review.reason} data-testid="label-reason">
          {REVIEW_REASON_LABELS[item.reason]}
        </span>{" "}
        <span className={review.detail} data-testid="label-detail">
          {item.detail}
        </span>
      </p>
      <LabelForm
        key={item.id}
        itemId={item.id}
        criterion={item.criterion}
        subject={subject}
        given={label}
        sessionName={sessionName}
        claimedBy={claimedBy}
        labelledBy={item.labelledBy}
        nextItems={nextItems}
        prevItems={prevItems}
        result={
          item.reason === "calibration_outlier"
            ? { href: `/suites/${id}/calibration`, label: "The calibration" }
            : {
                href: `/runs/${item.runId}/results/${encodeURIComponent(item.resultKey)}`,
                label: "The result",
              }
        }
      />
    </div>
  );
}
