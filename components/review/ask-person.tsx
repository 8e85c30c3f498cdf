"use client";
import Link from "next/link";
import { useState } from "react";
import { DECISION_ITEM } from "../../lib/engine/trust/people/needs-person";
import results from "../results/results.module.css";
import { ReviewerField } from "./reviewer-field";
import styles from "./review.module.css";
import { postJson, useReviewer } from "./use-reviewer";

/**
 * "Ask a person" on a result page: queues one of its criteria (or categories, or pairs) for a
 * person, with an optional note.
 */
export function AskPerson({
  runId,
  suiteId,
  resultKey,
  items,
  sessionName,
}: {
  runId: string;
  suiteId: string;
  resultKey: string;
  items: string[];
  sessionName: string | null;
}) {
  const reviewer = useReviewer(sessionName);
  const [item, setItem] = useState(items[0] ?? "");
  const [note, setNote] = useState("");
  const [state, setState] = useState<
    { kind: "idle" } | { kind: "asked"; id: string } | { kind: "error"; message: string }
  >({ kind: "idle" });
  if (items.length === 0) return null;
  async function ask() {
    if (!reviewer.name) return;
    const asked = await postJson<{ id: string }>(`/api/runs/${runId}/review`, {
      resultKey,
      criterion: item,
      reviewer: reviewer.name,
      ...(note.trim() ? { note } : {}),
    });
    setState(
      asked.ok ? { kind: "asked", id: asked.value.id } : { kind: "error", message: asked.message },
    );
  }
  return (
    <section className={results.section} data-testid="ask-person">
      <h2>Ask a person</h2>
      <ReviewerField {...reviewer} asking />
      <div className={results.toolbar}>
        <label>
          About
          <select
            className={styles.input}
            value={item}
            onChange={(e) => setItem(e.target.value)}
            data-testid="ask-item"
          >
            {items.map((i) => (
              <option key={i} value={i}>
                {i === DECISION_ITEM ? "the review's decision" : i}
              </option>
            ))}
          </select>
        </label>
        <label>
          Why (optional)
          <input
            className={styles.input}
            value={note}
            maxLength={2000}
            onChange={(e) => setNote(e.target.value)}
            data-testid="ask-note"
          />
        </label>
        <button
          type="button"
          className={styles.button}
          disabled={!reviewer.name}
          onClick={() => void ask()}
          data-testid="ask-submit"
        >
          Ask a person
        </button>
      </div>
      {state.kind === "asked" ? (
        <p className={styles.done} data-testid="ask-done">
          Queued, open for anyone to label (asking claims nothing).{" "}
          <Link href={`/suites/${suiteId}/review/${state.id}`}>Label it now</Link> or see the{" "}
          <Link href={`/suites/${suiteId}/review`}>review queue</Link>.
        </p>
      ) : null}
      {state.kind === "error" ? (
        <p className={styles.notice} role="alert">
          {state.message}
        </p>
      ) : null}
    </section>
  );
}
