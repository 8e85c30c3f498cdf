"use client";
import { useState } from "react";
import styles from "./review.module.css";
import { postJson } from "./use-reviewer";

type State =
  | { kind: "idle" }
  | { kind: "added"; items: number; again: boolean; suiteId: string }
  | { kind: "error"; message: string };

/** "Add to dataset": the label as an item of the suite's ReferenceDataset, with a link to download it. */
export function AddToDataset({ labelId }: { labelId: string }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  async function add() {
    const added = await postJson<{ suiteId: string; added: boolean; items: number }>(
      `/api/labels/${labelId}/dataset`,
      {},
    );
    setState(
      added.ok
        ? {
            kind: "added",
            items: added.value.items,
            again: !added.value.added,
            suiteId: added.value.suiteId,
          }
        : { kind: "error", message: added.message },
    );
  }
  return (
    <div data-testid="add-to-dataset">
      {state.kind !== "added" ? (
        <button
          type="button"
          className={`${styles.button} ${styles.secondary}`}
          onClick={() => void add()}
          data-testid="add-to-dataset-button"
        >
          Add to dataset
        </button>
      ) : (
        <p className={styles.done} data-testid="add-to-dataset-done">
          {state.again ? "Already in" : "Added to"} the suite&apos;s dataset ({state.items}{" "}
          {state.items === 1 ? "item" : "items"}).{" "}
          <a href={`/api/suites/${state.suiteId}/dataset`}>Download it as ReferenceDataset JSON</a>
        </p>
      )}
      {state.kind === "error" ? (
        <p className={styles.notice} role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
