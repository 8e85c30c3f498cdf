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
import { createReviewQueue } from "@/lib/store/review-queue";
import { pageSessionReviewer } from "../../../../api/review/reviewer";
import { runViews } from "../../../../runs/_lib/load";
import { parseQueueQuery, queueQueryString, storeFilter } from "../query";

export const dynamic = "force-dynamic";

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
  // browser knows the reviewer's name. K goes back to the one before this (labelled or not).
  const all = queued.items;
  const at = all.findIndex((i) => i.id === item.id);
  const href = (other: { id: string }) =>
    `/suites/${id}/review/${other.id}${queueQueryString(query)}`;
  const nextItems = [...all.slice(at + 1), ...all.slice(0, Math.max(at, 0))]
    .filter((i) => i.state !== "labelled")
    .slice(0, NEXT_ITEMS)
    .map((i) => ({ href: href(i), labelledBy: i.labelledBy }));
  const previous = at > 0 ? all[at - 1] : undefined;

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
      <h1 className={styles.title} data-testid="label-title">
        {item.evalName}: {item.criterion}
      </h1>
      <p>
        <span className={review.reason} data-testid="label-reason">
          {REVIEW_REASON_LABELS[item.reason]}
        </span>{" "}
        <span className={review.detail}>{item.detail}</span>
      </p>
      <p className={styles.muted}>
        {item.reason === "calibration_outlier" ? (
          <Link href={`/suites/${id}/calibration`}>calibration</Link>
        ) : (
          <Link href={`/runs/${item.runId}/results/${encodeURIComponent(item.resultKey)}`}>
            the result
          </Link>
        )}
      </p>
      <LabelForm
        key={item.id}
        itemId={item.id}
        criterion={item.criterion}
        subject={subject}
        given={label}
        sessionName={sessionName}
        nextItems={nextItems}
        prevHref={previous ? href(previous) : null}
      />
    </div>
  );
}
