"use client";
import { useState } from "react";
import styles from "./review.module.css";

/** Asks for the reviewer's name once (loopback, no login); then shows it with a way to change it. */
export function ReviewerField({
  name,
  fromSession,
  setName,
}: {
  name: string | null;
  fromSession: boolean;
  setName: (name: string) => void;
}) {
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState(false);
  if (name && !editing) {
    return (
      <p className={styles.reviewer} data-testid="reviewer">
        Labelling as <strong data-testid="reviewer-name">{name}</strong>
        {fromSession ? null : (
          <button type="button" className={styles.linkButton} onClick={() => setEditing(true)}>
            change
          </button>
        )}
      </p>
    );
  }
  return (
    <form
      className={styles.reviewer}
      onSubmit={(event) => {
        event.preventDefault();
        setName(draft);
        setEditing(false);
      }}
    >
      <label>
        Your name (labels say who gave them){" "}
        <input
          className={styles.input}
          value={draft}
          maxLength={80}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="reviewer-input"
          autoFocus
        />
      </label>{" "}
      <button type="submit" className={styles.button} data-testid="reviewer-save">
        Save
      </button>
    </form>
  );
}
