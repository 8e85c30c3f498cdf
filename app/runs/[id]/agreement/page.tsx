import Link from "next/link";
import { notFound } from "next/navigation";
import { AgreementChart } from "@/components/results/agreement-chart";
import { AgreementTable } from "@/components/results/agreement-table";
import { DisagreementList } from "@/components/results/disagreement-list";
import { JurorMatrix } from "@/components/results/juror-matrix";
import styles from "@/components/results/results.module.css";
import trust from "@/components/results/trust.module.css";
import { Stat } from "@/components/results/status-counts";
import { PeopleAgreement, PeoplePeopleAgreement } from "@/components/review/people-agreement";
import { DISAGREEMENT_SPREAD } from "@/lib/engine/trust/agreement/judge-disagreements";
import { dashboardDatabase } from "@/lib/store/dashboard-database";
import { agreementOffThread } from "@/lib/offthread/agreement-off-thread";
import { labelCalibration, labelPeopleAgreement } from "@/lib/store/label-calibration";
import { DISAGREEMENTS_KEPT, NO_AGREEMENT } from "@/lib/store/agreement-figures";
import { runViews } from "../../_lib/load";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Judge agreement · run ${(await params).id.slice(0, 8)}` };
}

export const dynamic = "force-dynamic";

const DISAGREEMENTS_SHOWN = DISAGREEMENTS_KEPT;

const JURY_EXAMPLE = `evals:
  - name: summary quality
    response: "..."
    rubric: "Accurate and complete summary."
    judge:
      jury: { size: 3 }              # three independent samples of one model
  - name: summary quality (panel)
    response: "..."
    rubric: "Accurate and complete summary."
    judge:
      panel: [claude-sonnet-4-6, claude-haiku-4-5]   # or several models
    matrix:
      prompts: ["Summarize.", "Summarize in one line."]   # more cells, more units to agree on`;

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const views = await runViews();
  const run = await views.runOverview(id);
  if (!run) notFound();
  // A finished run's figures were kept when it finished; otherwise a worker thread computes them.
  const answer = await views.runAgreement(id, { compute: agreementOffThread });
  const db = dashboardDatabase();
  const [people, peoplePeople] = db.ok
    ? await Promise.all([
        labelCalibration(db.prisma, { runId: id }),
        labelPeopleAgreement(db.prisma, { runId: id }),
      ])
    : [undefined, []];
  // Why it could not be computed now (the worker thread's time limit, a busy server), or the figures.
  const unavailable = "unavailable" in answer ? answer.unavailable : undefined;
  const agreement = "unavailable" in answer ? NO_AGREEMENT : answer;
  // The α bars: one per criterion whose α is defined; the pooled row is in the table.
  const bars = agreement.statistics.flatMap((s) =>
    s.krippendorffAlpha.value === null
      ? []
      : [
          {
            label: agreement.matrices.length > 1 ? `${s.eval}: ${s.item}` : s.item,
            alpha: s.krippendorffAlpha.value,
            low: s.krippendorffAlpha.ci95?.low ?? null,
            high: s.krippendorffAlpha.ci95?.high ?? null,
          },
        ],
  );

  return (
    <div className={styles.page}>
      <div className={styles.crumbs}>
        <Link href="/runs">Runs</Link> / <Link href={`/runs/${id}`}>{run.suiteName}</Link> / judge
        agreement
      </div>
      <h1 className={styles.title}>Judge agreement</h1>
      <p className={styles.muted}>
        How far the jurors and panel models of this run agree with each other, per criterion:
        Krippendorff&apos;s α with a bootstrap 95% interval, Fleiss&apos; κ for categorical scales,
        and exact agreement. The units are each eval&apos;s graded candidates: matrix cells that
        differ only by their judge model (<code>matrix.models</code>) grade the same candidate, so
        those models are compared on it.
      </p>

      {unavailable ? (
        <div className={styles.empty} data-testid="agreement-unavailable">
          {unavailable}
        </div>
      ) : agreement.results === 0 ? (
        <div className={styles.empty} data-testid="agreement-empty">
          <p>
            <strong>No eval in this run was graded by more than one judge.</strong>
          </p>
          <p>
            Agreement needs several jurors (samples of one model), a panel of models, or a matrix
            over two or more judge models on the same eval. Add a <code>judge:</code> block with a
            jury or a panel, then run the suite again:
          </p>
          <pre className={trust.code}>{JURY_EXAMPLE}</pre>
        </div>
      ) : (
        <>
          <div className={`${styles.section} ${styles.stats}`}>
            <Stat label="Multi-judge results" value={String(agreement.results)} />
            <Stat label="Evals" value={String(agreement.matrices.length)} />
            <Stat
              label="Disagreements"
              value={String(agreement.disagreementCount)}
              testId="disagreement-count"
            />
          </div>
          {agreement.sampledFirst ? (
            <p className={styles.muted} data-testid="agreement-sampled">
              The figures are over the first {agreement.sampledFirst.toLocaleString("en-US")} of the
              run&apos;s {(agreement.of ?? agreement.sampledFirst).toLocaleString("en-US")}{" "}
              multi-judge results, in the suite&apos;s order.
            </p>
          ) : null}

          <section className={styles.section}>
            <h2>Per criterion</h2>
            <AgreementChart bars={bars} />
            <AgreementTable rows={agreement.statistics} />
          </section>
          {people ? <PeopleAgreement result={people} suiteId={run.suiteId} /> : null}
          {peoplePeople.length ? <PeoplePeopleAgreement rows={peoplePeople} /> : null}

          <section className={styles.section}>
            <h2>Judge × judge</h2>
            {agreement.matrices.map((m) => (
              <JurorMatrix key={m.eval} matrix={m} />
            ))}
          </section>

          <section className={styles.section}>
            <h2>Disagreements</h2>
            <p className={styles.muted}>
              On pass/fail and other categorical scales, the judges disagree when their ratings
              differ; on unit scores, when their pass/fail splits or their scores spread by{" "}
              {DISAGREEMENT_SPREAD} or more.
            </p>
            {agreement.disagreements.length === 0 ? (
              <div className={styles.empty}>The judges agreed on every graded criterion.</div>
            ) : (
              <DisagreementList
                runId={id}
                rows={agreement.disagreements}
                limit={DISAGREEMENTS_SHOWN}
                total={agreement.disagreementCount}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
