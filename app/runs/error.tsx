"use client";

import styles from "@/components/results/results.module.css";

// The results pages' error state: say what went wrong (usually no database)
// and offer a retry instead of a blank page.
export default function RunsError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <div className={styles.page}>
      <div className={styles.error} role="alert">
        <strong>Could not load the run history.</strong>
        <p>{error.message}</p>
        <button className={styles.button} onClick={reset} type="button">
          Try again
        </button>
      </div>
    </div>
  );
}
