import Link from "next/link";
import { notFound } from "next/navigation";
import {
  CalibrationCriteria,
  CalibrationEmpty,
  CalibrationView,
} from "@/components/calibration/calibration-view";
import { RunCalibrationButton } from "@/components/calibration/run-calibration-button";
import { formatInt, formatTime, formatUsd } from "@/components/results/format";
import styles from "@/components/results/results.module.css";
import { historyCrumb, SuiteCrumbs } from "@/components/results/suite-crumbs";
import { createCalibrationStore } from "@/lib/store/calibration-store";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { calibrationQuestions } from "@/lib/engine/trust/people/needs-person";
import { labelCalibration } from "@/lib/store/label-calibration";
import { runViews } from "../../../runs/_lib/load";

export const metadata = { title: "Calibration" };

export const dynamic = "force-dynamic";

/** Calibration runs shown in the drift chart. */
const DRIFT_RUNS = 30;

export default async function SuiteCalibrationPage({
  params,
}: {
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const views = await runViews();
  const suite = await views.suite(id);
  if (!suite) notFound();
  const db = dashboardDatabase();
  if (!db.ok) throw new Error(db.message);
  const store = createCalibrationStore(db.prisma);
  const [latest, drift, people] = await Promise.all([
    store.latestCalibration(id),
    store.maeHistory({ suiteId: id, limit: DRIFT_RUNS }),
    labelCalibration(db.prisma, { suiteId: id }),
  ]);
  // One per question the review queue asks (an anchor several evals share is one), and how many
  // eval × criterion misses they are.
  const outliers = latest ? calibrationQuestions(latest.result) : [];
  const misses = latest ? latest.result.criteria.reduce((n, c) => n + c.outliers, 0) : 0;

  return (
    <div className={styles.page}>
      <SuiteCrumbs
        suiteId={id}
        suiteName={suite.name}
        trail={[historyCrumb(id), { label: "calibration" }]}
      />
      <h1 className={styles.title}>Calibration of {suite.name}</h1>
      <p className={styles.muted}>
        How closely the judge matches the scores people gave the suite&apos;s anchors and labelled
        items.
      </p>
      <div className={styles.section}>
        <RunCalibrationButton suiteId={id} {...(latest ? { anchors: latest.result.probes } : {})} />
      </div>
      {latest ? (
        <>
          <section className={styles.section}>
            <div className={styles.stats}>
              <div className={styles.stat}>
                <div className={styles.label}>calibrated</div>
                <div className={styles.value} style={{ fontSize: 14 }}>
                  {formatTime(latest.createdAt)}
                </div>
              </div>
              <div className={styles.stat}>
                <div className={styles.label}>by</div>
                <div className={styles.value}>{latest.startedBy}</div>
              </div>
              <div className={styles.stat}>
                <div className={styles.label}>labelled items</div>
                <div className={styles.value}>{formatInt(latest.result.probes)}</div>
              </div>
              <div className={styles.stat}>
                <div className={styles.label}>outliers</div>
                {/* Counted as the review queue asks them: an anchor of a rubric several evals share is one outlier. */}
                <div className={styles.value} data-testid="calibration-outliers">
                  {formatInt(outliers.length)}
                </div>
                {misses > outliers.length ? (
                  <div className={styles.label} data-testid="calibration-outlier-misses">
                    missed {formatInt(misses)} times over the evals sharing a rubric
                  </div>
                ) : null}
              </div>
              <div className={styles.stat}>
                <div className={styles.label}>not graded</div>
                <div className={styles.value}>{formatInt(latest.result.ungraded)}</div>
              </div>
              <div className={styles.stat}>
                <div className={styles.label}>judge calls · cost</div>
                <div className={styles.value} style={{ fontSize: 14 }}>
                  {formatInt(latest.result.judgeCalls)} · {formatUsd(latest.result.costUsd)}
                </div>
              </div>
            </div>
          </section>
          <CalibrationView
            result={latest.result}
            drift={drift.map((d) => ({
              ...d,
              points: d.points.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
            }))}
          />
        </>
      ) : (
        <section className={styles.section}>
          <CalibrationEmpty suiteId={id} suiteName={suite.name} />
        </section>
      )}
      {people ? (
        <section className={styles.section} data-testid="people-calibration">
          <h2>Against people&apos;s labels</h2>
          <p className={styles.muted}>
            The labels people gave in the <Link href={`/suites/${id}/review`}>review queue</Link>,
            each beside the judges&apos; verdict on the same criterion of the same result, with
            Cohen&apos;s κ and its bootstrap 95% interval.
          </p>
          <CalibrationCriteria result={people} />
        </section>
      ) : null}
    </div>
  );
}
