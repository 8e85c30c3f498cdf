import type {
  CalibrationItem,
  CalibrationResult,
  CriterionCalibration,
  MaeDrift,
} from "./calibration-types";
import type { TrendRow, TrendSeries } from "../results/score-trend-chart";
import { CalibrationScatter, MaeDriftChart } from "./calibration-charts";
import { JudgeReadings } from "./judge-readings";
import { labelledByNote, sameRow } from "../../lib/engine/trust/calibration/labellers";
import styles from "../results/results.module.css";
import own from "./calibration.module.css";
import { calibrateCommandFor, suiteFileName, suiteYamlUrl } from "../authoring/suite-file";

// The calibration view: per criterion, labelled against judged (scatter with
// y = x), MAE, Cohen's kappa, the confusion matrix of categorical scales and
// every item with the judge's reasoning (outliers first); then the drift of
// each criterion's MAE across calibration runs. Every text from the suite or
// the judge is rendered as text.

const fixed = (x: number | null, digits = 2) => (x === null ? "—" : x.toFixed(digits));

function ItemsTable({ items }: { items: CalibrationItem[] }) {
  const sorted = [...items].sort(
    (a, b) =>
      Number(b.outlier) - Number(a.outlier) || Math.abs(b.error ?? 1) - Math.abs(a.error ?? 1),
  );
  return (
    <table className={styles.table} data-testid="calibration-items">
      <thead>
        <tr>
          <th>Item</th>
          <th>Text</th>
          <th className={styles.num}>Labelled</th>
          <th className={styles.num}>Judged</th>
          <th className={styles.num}>Error</th>
          <th>Judge&apos;s reasoning</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((item) => (
          <tr
            key={`${item.source}-${item.id}-${item.annotator ?? ""}`}
            data-outlier={item.outlier ? "true" : "false"}
            className={item.outlier ? own.outlierRow : undefined}
          >
            <td>
              {item.source} {item.id}
              {item.annotator ? <div className={styles.muted}>{item.annotator}</div> : null}
              {item.outlier ? (
                <div>
                  <span className={`${styles.badge} ${styles.failed}`}>outlier</span>
                </div>
              ) : null}
              {item.judged === null ? (
                <div>
                  <span className={`${styles.badge} ${styles.judge_error}`}>not graded</span>
                </div>
              ) : null}
            </td>
            <td className={own.text}>{item.text}</td>
            <td className={styles.num}>{fixed(item.label)}</td>
            <td className={styles.num}>{fixed(item.judged)}</td>
            <td className={styles.num}>
              {item.error === null ? "—" : `${item.error > 0 ? "+" : ""}${item.error.toFixed(2)}`}
            </td>
            <td className={own.text}>
              {item.judges ? (
                <JudgeReadings judges={item.judges} judged={item.judged} />
              ) : (
                item.reasoning
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Confusion({ c }: { c: CriterionCalibration }) {
  return (
    <table className={`${styles.table} ${own.confusion}`} data-testid="confusion-matrix">
      <caption className={styles.muted}>Confusion: rows labelled, columns judged</caption>
      <thead>
        <tr>
          <th />
          {c.confusion.categories.map((name) => (
            <th key={name} className={styles.num}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {c.confusion.matrix.map((row, i) => (
          <tr key={c.confusion.categories[i]}>
            <th>{c.confusion.categories[i]}</th>
            {row.map((n, j) => (
              <td
                key={j}
                className={`${styles.num} ${n > 0 ? (i === j ? own.hit : own.miss) : ""}`}
              >
                {n}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CriterionCard({
  c,
  tolerance,
  over,
}: {
  c: CriterionCalibration;
  tolerance: number;
  over: boolean;
}) {
  const points = c.items.flatMap((i) =>
    i.judged === null
      ? []
      : [{ label: i.label, judged: i.judged, outlier: i.outlier, name: `${i.source} ${i.id}` }],
  );
  return (
    <article
      className={styles.card}
      data-testid="calibration-criterion"
      data-criterion={c.item}
      data-eval={c.eval}
    >
      <div className={styles.cardHead}>
        <h3 className={own.heading}>
          {c.eval} › {c.item}
          {labelledByNote(c)}
        </h3>
        <span className={`${styles.badge} ${styles.neutral}`}>{c.scale}</span>
        {over ? (
          <span className={`${styles.badge} ${styles.failed}`}>MAE above the maximum</span>
        ) : null}
      </div>
      <div className={styles.facts}>
        <span data-testid="calibration-mae">MAE {fixed(c.mae, 3)}</span>
        <span data-testid="calibration-kappa">
          Cohen&apos;s κ ({c.kappa.weights}){" "}
          {c.kappa.value === null ? `n/a: ${c.kappa.note ?? ""}` : c.kappa.value.toFixed(3)}
          {c.kappa.ci95
            ? ` (95% CI ${c.kappa.ci95.low.toFixed(2)} to ${c.kappa.ci95.high.toFixed(2)})`
            : ""}
        </span>
        <span>
          {c.graded}/{c.items.length} graded
        </span>
        <span>
          {c.outliers} outlier{c.outliers === 1 ? "" : "s"} (off by more than ±{tolerance})
        </span>
      </div>
      <div className={own.grid}>
        <figure className={own.figure}>
          <CalibrationScatter points={points} />
          <figcaption className={styles.muted}>
            Labelled (x) against judged (y); dashed: y = x, a judge that agrees with every label.
          </figcaption>
        </figure>
        <div className={own.side}>{c.scale !== "unit" ? <Confusion c={c} /> : null}</div>
      </div>
      <ItemsTable items={c.items} />
    </article>
  );
}

/** MAE history as chart rows: one x position per calibration run (oldest first), one series per criterion. */
function driftChart(drift: MaeDrift[]): { rows: TrendRow[]; series: TrendSeries[] } {
  const series = drift.map((d, i) => ({ key: `c${i}`, label: `${d.eval} › ${d.item}` }));
  const rows = new Map<string, TrendRow>();
  const runs = [
    ...new Set(drift.flatMap((d) => d.points.map((p) => `${p.createdAt}\u0000${p.runId}`))),
  ].sort();
  for (const run of runs)
    rows.set(run.split("\u0000")[1]!, { run: run.slice(5, 16).replace("T", " ") } as TrendRow);
  drift.forEach((d, i) => {
    for (const p of d.points) rows.get(p.runId)![`c${i}`] = p.mae;
  });
  return { rows: [...rows.values()], series };
}

/** One card per criterion: the suite's anchors (a calibration run), or people's labels from the review queue. */
export function CalibrationCriteria({ result }: { result: CalibrationResult }) {
  return (
    <>
      {result.criteria.map((c) => (
        <CriterionCard
          key={`${c.eval}\u0000${c.item}\u0000${c.labelledBy ?? ""}`}
          c={c}
          tolerance={result.tolerance}
          over={result.overMaxError.some((o) => sameRow(o, c))}
        />
      ))}
    </>
  );
}

export function CalibrationView({
  result,
  drift,
}: {
  result: CalibrationResult;
  drift: MaeDrift[];
}) {
  const chart = driftChart(drift);
  const runs = chart.rows.length;
  return (
    <>
      <section className={styles.section}>
        <CalibrationCriteria result={result} />
      </section>
      <section className={styles.section} data-testid="calibration-drift">
        <h2>MAE across calibration runs</h2>
        {runs < 2 ? (
          <p className={styles.muted}>
            One calibration so far: run it again after changing the rubric or the judge to see
            whether its error drifts.
          </p>
        ) : (
          <figure className={styles.card}>
            <figcaption className={styles.muted}>
              Mean absolute error per criterion, oldest to newest ({runs}{" "}
              {runs === 1 ? "run" : "runs"}): lower is better.
            </figcaption>
            <MaeDriftChart rows={chart.rows} series={chart.series} />
          </figure>
        )}
      </section>
    </>
  );
}

const ANCHORS_EXAMPLE = `evals:
  - name: support answers
    prompt: "How do I reset my password?"
    response: "Use the reset link on the sign-in page."
    rubric:
      criteria:
        - name: actionable
          description: "Tells the user exactly what to do."
          examples:                 # calibration anchors: a response and the score a person gives it
            - { response: "Click Forgot password on the sign-in page.", score: 1.0 }
            - { response: "Passwords are important.", score: 0.0 }`;

export function CalibrationEmpty({ suiteId, suiteName }: { suiteId: string; suiteName: string }) {
  const fileName = suiteFileName(suiteName);
  return (
    <div className={styles.empty} data-testid="calibration-empty">
      <p>
        <strong>No calibration of this suite yet.</strong> Calibration asks the judge to grade
        responses whose score a person already knows (the anchors under a criterion&apos;s{" "}
        <code>examples:</code>, category examples, annotated dataset items) and shows how far it is
        from those labels.
      </p>
      <p>Add anchors to a criterion:</p>
      <pre className={own.code}>{ANCHORS_EXAMPLE}</pre>
      <p>
        Then press <em>Run calibration</em> above (the server needs the key of its judge
        models&apos; provider, e.g. <code>ANTHROPIC_API_KEY</code>), or run it from the command line
        where you have a key:{" "}
        <a href={suiteYamlUrl(suiteId)} download={fileName} data-testid="calibration-download">
          download the suite
        </a>{" "}
        (it saves as <code data-testid="calibration-file">{fileName}</code>) and run this where you
        saved it (<code>--store</code> files the calibration under this suite):
      </p>
      <pre className={own.code} data-testid="calibration-command">
        {calibrateCommandFor(suiteName)}
      </pre>
    </div>
  );
}
