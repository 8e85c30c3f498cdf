import type { Transcript } from "../ports/live-port";

// The transcript of a live agent run: what the judge grades (as text) and what
// the reports show (structured). lib/live builds it, already redacted and with
// long tool results truncated; the engine renders it, so that the text the
// judge reads, `when:` predicates and evidence checks all see the same bytes.

// The types live in the live port, which returns a transcript.
export type { Transcript, TranscriptEntry, TranscriptStop } from "../ports/live-port";

/** The agent as reports name it: "openai:gpt-4.1-mini (openai)", or the model alone when its provider is unknown. */
export function transcriptAgent(t: Pick<Transcript, "model" | "provider">): string {
  return t.provider === undefined ? t.model : `${t.model} (${t.provider})`;
}

/** The marker appended to a truncated tool result. */
export function truncationMarker(shown: number, total: number): string {
  return `[… truncated: showing the first ${shown} of ${total} characters]`;
}

function argumentsText(value: unknown): string {
  if (value === undefined) return "{}";
  try {
    return JSON.stringify(value) ?? "{}";
  } catch {
    return String(value);
  }
}

/** The transcript as the judge reads it: the prompt, each tool call with its arguments and result, the final reply. */
export function renderTranscript(transcript: Transcript): string {
  const blocks: string[] = [];
  let call = 0;
  for (const entry of transcript.entries) {
    if (entry.kind === "user") blocks.push(`User:\n${entry.text}`);
    else if (entry.kind === "assistant") blocks.push(`Assistant:\n${entry.text}`);
    else if (entry.kind === "final") blocks.push(`Assistant (final reply):\n${entry.text}`);
    else {
      call++;
      const result =
        entry.truncatedFrom === undefined
          ? entry.result
          : `${entry.result}\n${truncationMarker(entry.result.length, entry.truncatedFrom)}`;
      blocks.push(
        `Tool call ${call}: ${entry.name} ${argumentsText(entry.arguments)}\nTool result ${call}${entry.isError ? " (error)" : ""}:\n${result}`,
      );
    }
  }
  if (transcript.stopNote !== undefined) blocks.push(`[${transcript.stopNote}]`);
  return blocks.join("\n\n");
}

/** The agent's final reply, or undefined when it stopped without one. */
export function finalReply(transcript: Transcript): string | undefined {
  const last = transcript.entries.at(-1);
  return last?.kind === "final" ? last.text : undefined;
}
