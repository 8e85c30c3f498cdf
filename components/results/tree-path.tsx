import type { TreeStep } from "@/lib/engine/results/report";
import styles from "./results.module.css";

// The decision tree's walk drawn as steps, question → answer, ending at the leaf.
export function TreePath({
  path,
  leaf,
}: {
  path: TreeStep[];
  leaf?: { score: number; reason?: string };
}) {
  return (
    <ol className={styles.steps} data-testid="tree-path">
      {path.map((step, i) => (
        <li key={i} style={{ display: "contents" }}>
          <div className={styles.step}>
            <div className={styles.muted}>Step {i + 1}</div>
            <div>{step.ask}</div>
            <div>
              <strong className={step.answer === "yes" ? styles.up : styles.down}>
                {step.answer}
              </strong>{" "}
              ({step.score.toFixed(2)})
            </div>
            {step.reasoning ? <div className={styles.reasoning}>{step.reasoning}</div> : null}
          </div>
          <span className={styles.arrow} aria-hidden>
            →
          </span>
        </li>
      ))}
      <li className={styles.step}>
        <div className={styles.muted}>Leaf</div>
        {leaf ? (
          <>
            <strong>{leaf.score.toFixed(2)}</strong>
            {leaf.reason ? <div>{leaf.reason}</div> : null}
          </>
        ) : (
          <div>not reached</div>
        )}
      </li>
    </ol>
  );
}
