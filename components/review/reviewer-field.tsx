"use client";
import { useState } from "react";
import styles from "./review.module.css";

/**
 * Asks for the reviewer's name once (loopback, no login); then shows it with a way to change it.
 * `asking`: the name of who asks a person (Ask a person), which claims nothing, so it does not
 * read "Labelling as".
 */
export function ReviewerField({
  name,
  fromSession,
  setName,
  asking = false,
}: {
  name: string | null;
  fromSession: boolean;
  setName: (name: string) => void;
  asking?: boolean;
}) {
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState(false);
  if (name && !editing) {
    return (
      <p className={styles.reviewer} data-testid="reviewer">
        {asking ? "Asking as" : "Labelling as"} <strong data-testid="reviewer-name">{name}</strong>
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
        {asking ? "Your name (the queue says who asked)" : "Your name (labels say who gave them)"}{" "}
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
