import styles from "@/components/results/results.module.css";

export default function RunsLoading() {
  return (
    <div className={styles.page}>
      <p className={styles.muted} aria-busy="true">
        Loading runs…
      </p>
    </div>
  );
}
