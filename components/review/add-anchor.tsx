"use client";
import Link from "next/link";
import { useState } from "react";
import { DiffView } from "../authoring/diff-view";
import { diffLines, withContext } from "../authoring/line-diff";
import styles from "./review.module.css";
import { postJson } from "./use-reviewer";

type Proposal = { suiteId: string; baseVersionId: string; from: string; to: string };
type State =
  | { kind: "idle" }
  | { kind: "diff"; proposal: Proposal }
  | { kind: "saved"; suiteId: string }
  | { kind: "error"; message: string };

/**
 * "Add as anchor": the label as a new examples: entry of its criterion, shown as a diff of the
 * suite, then saved as a new version.
 */
export function AddAnchor({ labelId }: { labelId: string }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  async function preview() {
    try {
      const response = await fetch(`/api/labels/${labelId}/anchor`);
      const json = (await response.json()) as Proposal & { error?: { message: string } };
      setState(
        response.ok
          ? { kind: "diff", proposal: json }
          : {
              kind: "error",
              message: json.error?.message ?? `The server answered ${response.status}.`,
            },
      );
    } catch {
      setState({ kind: "error", message: "The server could not be reached." });
    }
  }
  async function save(proposal: Proposal) {
    const saved = await postJson<{ suiteId: string }>(`/api/labels/${labelId}/anchor`, {
      baseVersionId: proposal.baseVersionId,
    });
    setState(
      saved.ok
        ? { kind: "saved", suiteId: saved.value.suiteId }
        : { kind: "error", message: saved.message },
    );
  }
  return (
    <div data-testid="add-anchor">
      {state.kind === "idle" || state.kind === "error" ? (
        <button
          type="button"
          className={`${styles.button} ${styles.secondary}`}
          onClick={() => void preview()}
          data-testid="add-anchor-button"
        >
          Add as anchor…
        </button>
      ) : null}
      {state.kind === "error" ? (
        <p className={styles.notice} role="alert" data-testid="add-anchor-error">
          {state.message}
        </p>
      ) : null}
      {state.kind === "diff" ? (
        <>
          <p className={styles.hint}>
            The suite&apos;s newest version with this label as an anchor:
          </p>
          <DiffView rows={withContext(diffLines(state.proposal.from, state.proposal.to))} />
          <p>
            <button
              type="button"
              className={styles.button}
              onClick={() => void save(state.proposal)}
              data-testid="add-anchor-save"
            >
              Save as a new version
            </button>{" "}
            <button
              type="button"
              className={`${styles.button} ${styles.secondary}`}
              onClick={() => setState({ kind: "idle" })}
            >
              Cancel
            </button>
          </p>
        </>
      ) : null}
      {state.kind === "saved" ? (
        <p className={styles.done} data-testid="add-anchor-saved">
          Saved as a new version of the suite.{" "}
          <Link href={`/suites/${state.suiteId}`}>Open it in the editor</Link>
        </p>
      ) : null}
    </div>
  );
}
