"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { RegradeStartedView } from "./regrade-body";
import { formatTime } from "./format";
import styles from "./results.module.css";

// Re-grade with…: this run's stored candidates graded again by a version of
// its suite (the current one, or any other) and, optionally, another judge
// model (free text, the known models suggested). The new run opens at once,
// its progress live, and links to its flips when done.

export interface RegradeVersionOption {
  id: string;
  number: number;
  createdAt: string;
}

/** "(current, this run's)": one parenthesis, not "(current) (this run's)". */
export function versionNote(input: { current: boolean; runs: boolean }): string {
  const notes = [input.current ? "current" : "", input.runs ? "this run's" : ""].filter(Boolean);
  return notes.length ? ` (${notes.join(", ")})` : "";
}

export function RegradeForm({
  runId,
  versions,
  runVersionId,
  models,
}: {
  runId: string;
  /** Newest first: the first is the suite's current version. */
  versions: RegradeVersionOption[];
  runVersionId: string;
  models: string[];
}) {
  const router = useRouter();
  const [versionId, setVersionId] = useState(versions[0]?.id ?? "");
  const [judge, setJudge] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const response = await fetch(`/api/runs/${runId}/regrade`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ versionId, ...(judge.trim() ? { judge: judge.trim() } : {}) }),
      });
      const body = (await response.json().catch(() => ({}))) as Partial<RegradeStartedView> & {
        error?: { message?: string };
      };
      if (!response.ok || !body.runId) {
        setError(body.error?.message ?? `The server answered ${response.status}.`);
        return;
      }
      router.push(`/runs/${body.runId}?watch=1`);
    } catch (cause) {
      setError(`The request failed: ${(cause as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={styles.toolbar}
      onSubmit={submit}
      aria-label="Re-grade with"
      data-testid="regrade-form"
    >
      <label>
        Suite version
        <select
          className={styles.input}
          value={versionId}
          onChange={(e) => setVersionId(e.target.value)}
          aria-label="Suite version"
          data-testid="regrade-version"
        >
          {versions.map((v, i) => (
            <option key={v.id} value={v.id}>
              v{v.number}
              {versionNote({ current: i === 0, runs: v.id === runVersionId })} ·{" "}
              {formatTime(v.createdAt)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Judge model
        <input
          className={styles.input}
          list={`regrade-models-${runId}`}
          value={judge}
          maxLength={200}
          placeholder="the suite's own"
          onChange={(e) => setJudge(e.target.value)}
          aria-label="Judge model"
          data-testid="regrade-judge"
        />
        <datalist id={`regrade-models-${runId}`}>
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      <button className={styles.button} type="submit" disabled={busy} data-testid="regrade-submit">
        {busy ? "Queueing…" : "Re-grade"}
      </button>
      {error ? (
        <span className={styles.error} role="alert" data-testid="regrade-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}
