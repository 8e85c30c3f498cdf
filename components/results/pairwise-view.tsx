import type { WinRateBar } from "@/lib/engine/pairwise/pairwise-result";
import type { JudgedPair, PairwiseOutcome } from "@/lib/engine/results/pairwise-types";
import { winnerText } from "./format";
import styles from "./results.module.css";
import trust from "./trust.module.css";
import { WinRateChart } from "./win-rate-chart";

// A pairwise comparison as the engine scored it (lib/engine/pairwise): win
// rates with Wilson intervals, the winner and its confidence, per-criterion
// winners, the judge's position-bias rate, and each pair's two verdicts side
// by side with the bias flag. Outputs and reasoning are rendered as text.

const pct = (v: number) => `${Math.round(v * 100)}%`;

export { winnerText };

function PairCard({
  pair,
  labels,
  comparison,
}: {
  pair: JudgedPair;
  labels: { a: string; b: string };
  comparison?: { input: string; output_a: string; output_b: string };
}) {
  return (
    <div
      className={styles.card}
      data-testid="pair"
      data-biased={pair.positionBiased ? "true" : "false"}
    >
      <div className={styles.cardHead}>
        <strong>{pair.item}</strong>
        <span className={styles.muted}>{pair.judge}</span>
        <span>
          winner <strong data-testid="pair-winner">{winnerText(pair.winner, labels)}</strong>
        </span>
        {pair.positionBiased ? (
          <span className={trust.flag} data-testid="bias-flag">
            position-biased
            {pair.favoredPosition ? ` (favours the ${pair.favoredPosition} slot)` : ""}
          </span>
        ) : null}
      </div>
      {comparison ? (
        <>
          <p className={styles.reasoning}>
            <span className={styles.muted}>input:</span> {comparison.input}
          </p>
          <div className={trust.orders}>
            <div className={trust.order}>
              <span className={styles.muted}>A · {labels.a}</span>
              <p className={styles.reasoning}>{comparison.output_a}</p>
            </div>
            <div className={trust.order}>
              <span className={styles.muted}>B · {labels.b}</span>
              <p className={styles.reasoning}>{comparison.output_b}</p>
            </div>
          </div>
        </>
      ) : null}
      <div className={trust.orders}>
        <div className={trust.order} data-testid="order-original">
          <span className={styles.muted}>A shown first</span>
          <div>
            verdict <strong>{pair.original}</strong>
          </div>
        </div>
        <div className={trust.order} data-testid="order-swapped">
          <span className={styles.muted}>B shown first</span>
          <div>
            verdict <strong>{pair.swapped}</strong> (its A is our B) →{" "}
            <strong>{pair.swappedMapped}</strong>
          </div>
        </div>
      </div>
      <p className={styles.reasoning}>{pair.reasoning}</p>
    </div>
  );
}

export function PairwiseView({ outcome, bars }: { outcome: PairwiseOutcome; bars: WinRateBar[] }) {
  const { labels, result, positionBias, categories } = outcome;
  return (
    <div data-testid="pairwise">
      <div className={styles.stats}>
        <div className={styles.stat} data-testid="pairwise-winner">
          <div className={styles.label}>Overall winner</div>
          <div className={styles.value}>{winnerText(result.overall_winner, labels)}</div>
        </div>
        <div className={styles.stat}>
          <div className={styles.label}>Confidence</div>
          <div className={styles.value}>{result.confidence.toFixed(2)}</div>
        </div>
        {bars.map((b) => (
          <div className={styles.stat} key={b.side} data-testid={`rate-${b.side}`}>
            <div className={styles.label}>
              {b.side === "tie" ? "Ties" : `${b.side} wins (${b.label})`}
            </div>
            <div className={styles.value}>{pct(b.rate)}</div>
            <div className={styles.label}>
              {b.ci95 ? `95% CI ${pct(b.ci95.low)}–${pct(b.ci95.high)}` : "no pairs"}
            </div>
          </div>
        ))}
        <div className={styles.stat} data-testid="position-bias">
          <div className={styles.label}>Position bias</div>
          <div className={styles.value}>
            {positionBias.rate === null ? "n/a" : pct(positionBias.rate)}
          </div>
          <div className={styles.label}>
            {positionBias.biased} of {positionBias.comparable} pairs
            {positionBias.favoredFirst ? ` · ${positionBias.favoredFirst} favour first` : ""}
            {positionBias.favoredSecond ? ` · ${positionBias.favoredSecond} favour second` : ""}
          </div>
        </div>
        {outcome.expect ? (
          <div className={styles.stat}>
            <div className={styles.label}>Expected winner</div>
            <div className={styles.value}>{outcome.expect}</div>
          </div>
        ) : null}
      </div>
      <p className={styles.muted}>
        Every pair is judged in both orders; a winner counts only when both orders agree. When they
        disagree, the pair counts as a tie and is flagged position-biased.
      </p>
      <WinRateChart bars={bars} />

      {categories.length ? (
        <table className={styles.table} data-testid="pairwise-criteria">
          <thead>
            <tr>
              <th>Criterion</th>
              <th>Winner</th>
              <th className={styles.num}>Margin</th>
              <th className={styles.num}>A wins</th>
              <th className={styles.num}>B wins</th>
              <th className={styles.num}>Ties</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c) => (
              <tr key={c.category}>
                <td>{c.category}</td>
                <td>{winnerText(c.winner, labels)}</td>
                <td className={styles.num}>{c.margin.toFixed(2)}</td>
                <td className={styles.num}>{c.winsA}</td>
                <td className={styles.num}>{c.winsB}</td>
                <td className={styles.num}>{c.ties}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      <div className={trust.group}>
        <h3>Comparisons</h3>
        {outcome.pairs.length === 0 ? (
          <div className={styles.empty}>No pair was judged.</div>
        ) : null}
        {outcome.pairs.map((pair, i) => (
          <PairCard
            key={`${pair.item}\u0000${pair.judge}\u0000${i}`}
            pair={pair}
            labels={labels}
            comparison={result.comparisons[i]}
          />
        ))}
      </div>
    </div>
  );
}
