import type { FlipRate } from "@/lib/engine/results/trust";
import styles from "./results.module.css";

// `eval --repeat N`: per criterion (and the eval's own pass / fail), how many
// items were graded in at least two repeats and how many of them flipped
// between pass and fail. 0% is a stable judge.

const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)}%`);

export function FlipRateTable({ flips }: { flips: FlipRate[] }) {
  return (
    <table className={styles.table} data-testid="flip-rates">
      <thead>
        <tr>
          <th>Criterion</th>
          <th>Items</th>
          <th>Flipped</th>
          <th>Flip rate</th>
        </tr>
      </thead>
      <tbody>
        {flips.map((f) => (
          <tr key={`${f.eval}-${f.item}`} data-testid="flip-rate" data-item={f.item}>
            <td>{f.item === "(eval)" ? "the eval's pass / fail" : f.item}</td>
            <td>{f.items}</td>
            <td title={f.flippedIds.join(", ")}>{f.flipped}</td>
            <td data-testid="flip-rate-value">{percent(f.rate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
