import type { Transcript } from "@/lib/engine/results/transcript";
import styles from "./results.module.css";

function argumentsText(value: unknown): string {
  try {
    return JSON.stringify(value ?? {}, null, 2);
  } catch {
    return String(value);
  }
}

// A live run step by step: the prompt, each tool call with its arguments and
// result, the final reply. Already redacted by lib/live; shown as text.
export function TranscriptView({ transcript }: { transcript: Transcript }) {
  return (
    <div className={styles.transcript} data-testid="transcript">
      <div className={styles.facts}>
        <span>server {transcript.server}</span>
        <span>agent {transcript.model}</span>
        <span>
          {transcript.turns} of {transcript.maxTurns} turns
        </span>
        <span>stopped: {transcript.stop}</span>
      </div>
      {transcript.entries.map((entry, i) => (
        <div className={styles.entry} key={i}>
          {entry.kind === "tool_call" ? (
            <>
              <div className={styles.entryKind}>
                tool call {entry.name} · {entry.durationMs} ms{entry.isError ? " · error" : ""}
              </div>
              <div>{argumentsText(entry.arguments)}</div>
              <div className={styles.entryKind}>
                result
                {entry.truncatedFrom !== undefined
                  ? ` (cut from ${entry.truncatedFrom} characters)`
                  : ""}
              </div>
              <div>{entry.result}</div>
            </>
          ) : (
            <>
              <div className={styles.entryKind}>
                {entry.kind === "final" ? "final reply" : entry.kind}
              </div>
              <div>{entry.text}</div>
            </>
          )}
        </div>
      ))}
      {transcript.stopNote ? <p className={styles.muted}>{transcript.stopNote}</p> : null}
    </div>
  );
}
