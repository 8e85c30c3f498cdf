import type { AgreementValue, JudgeAgreement } from "@/lib/engine/results/trust";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// The engine's agreement figures per criterion, as computed (lib/engine/trust/agreement):
// an undefined statistic shows its reason, never a made-up number.

function Value({ value, percent }: { value: AgreementValue; percent?: boolean }) {
  if (value.value === null)
    return (
      <span className={styles.muted} title={value.note}>
        n/a
      </span>
    );
  return <>{percent ? `${Math.round(value.value * 100)}%` : value.value.toFixed(3)}</>;
}

export function AgreementTable({ rows }: { rows: JudgeAgreement[] }) {
  return (
    <div className={trust.scroll}>
      <table className={styles.table} data-testid="agreement-table">
        <thead>
          <tr>
            <th>Eval</th>
            <th>Criterion</th>
            <th>Scale</th>
            <th className={styles.num}>Judges</th>
            <th className={styles.num}>Units</th>
            <th className={styles.num}>α</th>
            <th className={styles.num}>α 95% CI</th>
            <th className={styles.num}>Fleiss κ</th>
            <th className={styles.num}>Exact agreement</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.eval}\u0000${r.item}`} data-testid="agreement-row" data-item={r.item}>
              <td>{r.eval}</td>
              <td>{r.item}</td>
              <td>{r.level}</td>
              <td className={styles.num}>{r.judges.length}</td>
              <td className={styles.num}>{r.units}</td>
              <td className={styles.num} data-testid="alpha">
                <Value value={r.krippendorffAlpha} />
              </td>
              <td className={styles.num}>
                {r.krippendorffAlpha.ci95
                  ? `${r.krippendorffAlpha.ci95.low.toFixed(2)} to ${r.krippendorffAlpha.ci95.high.toFixed(2)}`
                  : "—"}
              </td>
              <td className={styles.num} data-testid="kappa">
                {r.fleissKappa ? (
                  <Value value={r.fleissKappa} />
                ) : (
                  <span className={styles.muted} title="Fleiss' κ is for categorical scales">
                    —
                  </span>
                )}
              </td>
              <td className={styles.num} data-testid="exact">
                <Value value={r.exactAgreement} percent />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
