import type { EvalStatus } from "@/lib/engine/results/report";
import { formatTime } from "./format";
import { runOutcome } from "./run-outcome";
import styles from "./results.module.css";

// Pick two runs of the suite to compare; a GET form, so the comparison is a link.
type RunOption = {
  id: string;
  createdAt: string;
  status: string;
  counts: Record<EvalStatus, number>;
  version: number;
};

export function CompareForm({
  action,
  runs,
  base,
  head,
}: {
  action: string;
  runs: RunOption[];
  base?: string;
  head?: string;
}) {
  const option = (r: RunOption) => (
    <option key={r.id} value={r.id}>
      {formatTime(r.createdAt)} · v{r.version} ({runOutcome(r.status, r.counts).label})
    </option>
  );
  return (
    <form className={styles.toolbar} method="get" action={action} aria-label="Compare two runs">
      <label>
        Earlier run
        <select className={styles.input} name="base" defaultValue={base} aria-label="Earlier run">
          {runs.map(option)}
        </select>
      </label>
      <label>
        Later run
        <select className={styles.input} name="head" defaultValue={head} aria-label="Later run">
          {runs.map(option)}
        </select>
      </label>
      <button className={styles.button} type="submit">
        Compare
      </button>
    </form>
  );
}
