import Link from "next/link";
import type { RunsCompared } from "@/lib/engine/results/report";
import { gradedChangeOf } from "@/lib/engine/trust/compare-baseline";
import { formatDelta, formatScore } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./results.module.css";

/**
 * Two runs compared by the engine's baseline rule (compareToBaseline): the counts over every
 * result, and the first rows of the deltas (the worst first: the store reads no more), with how
 * many more there are.
 */
export function RunComparison({
  comparison,
  headRunId,
}: {
  comparison: RunsCompared;
  headRunId: string;
}) {
  type Delta = RunsCompared["deltas"][number];
  // Graded in one run and not the other (deferred, skipped): no pass or fail, but a change.
  const graded = (d: Delta) => gradedChangeOf(d);
  const rank = (d: Delta) =>
    d.newlyFailing ? 0 : d.newlyPassing ? 1 : d.regressed ? 2 : graded(d) ? 3 : 4;
  const { nowGraded, noLongerGraded } = comparison;
  const more = comparison.compared - comparison.deltas.length;
  // Rows of equal change keep the order they come in: the store's, the suite's (a stable sort).
  const deltas = [...comparison.deltas].sort(
    (a, b) => rank(a) - rank(b) || Math.abs(b.delta ?? 0) - Math.abs(a.delta ?? 0),
  );
  return (
    <div data-testid="run-comparison">
      <div className={styles.facts}>
        <span data-testid="newly-failing">{comparison.newlyFailing} newly failing</span>
        <span data-testid="newly-passing">{comparison.newlyPassing} newly passing</span>
        <span>
          {comparison.regressions} regressed (a drop of more than {comparison.maxDrop.toFixed(2)},
          or newly failing)
        </span>
        {nowGraded ? <span data-testid="now-graded">{nowGraded} now graded</span> : null}
        {noLongerGraded ? (
          <span data-testid="no-longer-graded">{noLongerGraded} no longer graded</span>
        ) : null}
        <span>{comparison.unmatched} not in the earlier run</span>
      </div>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Eval</th>
            <th>Before</th>
            <th>After</th>
            <th className={styles.num}>Score before</th>
            <th className={styles.num}>Score after</th>
            <th className={styles.num}>Delta</th>
            <th>Change</th>
          </tr>
        </thead>
        <tbody>
          {deltas.map((d) => (
            <tr key={d.id} data-testid="comparison-row">
              <td>
                <Link
                  className={styles.rowLink}
                  href={`/runs/${headRunId}/results/${encodeURIComponent(d.id)}`}
                >
                  {d.name}
                </Link>
              </td>
              <td>
                {d.baselineStatus ? (
                  <StatusBadge status={d.baselineStatus} />
                ) : (
                  <span className={styles.muted}>new</span>
                )}
              </td>
              <td>
                <StatusBadge status={d.status} />
              </td>
              <td className={styles.num}>{formatScore(d.baselineScore)}</td>
              <td className={styles.num}>{formatScore(d.score)}</td>
              <td
                className={`${styles.num} ${d.delta !== null && d.delta < 0 ? styles.down : d.delta !== null && d.delta > 0 ? styles.up : ""}`}
              >
                {formatDelta(d.delta)}
              </td>
              <td>
                {d.newlyFailing
                  ? "newly failing"
                  : d.newlyPassing
                    ? "newly passing"
                    : d.regressed
                      ? "regressed"
                      : graded(d) === "now_graded"
                        ? "now graded"
                        : graded(d) === "no_longer_graded"
                          ? "no longer graded"
                          : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more > 0 ? (
        <p className={styles.muted} data-testid="comparison-more">
          … {more.toLocaleString("en-US")} more not shown (of{" "}
          {comparison.compared.toLocaleString("en-US")} results compared; the changed ones come
          first).
        </p>
      ) : null}
    </div>
  );
}
