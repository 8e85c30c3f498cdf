import { formatTime } from "./format";
import styles from "./results.module.css";

// Pick two runs of the suite to compare; a GET form, so the comparison is a link.
export function CompareForm({ action, runs, base, head }: { action: string; runs: { id: string; createdAt: string; status: string }[]; base?: string; head?: string }) {
  const option = (r: { id: string; createdAt: string; status: string }) => (
    <option key={r.id} value={r.id}>
      {formatTime(r.createdAt)} ({r.status})
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
