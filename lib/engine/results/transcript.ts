// The transcript of a live agent run: what the judge grades (as text) and what
// the reports show (structured). lib/live builds it, already redacted and with
// long tool results truncated; the engine renders it, so that the text the
// judge reads, `when:` predicates and evidence checks all see the same bytes.

export type TranscriptEntry =
  | { kind: "user"; text: string }
  /** Text the agent wrote alongside tool calls (not its final reply). */
  | { kind: "assistant"; text: string }
  | {
      kind: "tool_call";
      name: string;
      /** The arguments the agent passed (redacted). */
      arguments: unknown;
      /** The result as text (redacted; cut to the agent's max_result_chars). */
      result: string;
      isError: boolean;
      /** The result's full length when it was truncated. */
      truncatedFrom?: number;
      durationMs: number;
    }
  | { kind: "final"; text: string };

/** Why the agent stopped: its final reply, a limit, a failure, or the budget / an interruption. */
export type TranscriptStop = "final" | "max_turns" | "timeout" | "error" | "skipped";

export interface Transcript {
  server: string;
  /** The agent's model as written in the suite (`openai:gpt-4.1-mini`). */
  model: string;
  /** The provider that ran it, when models were resolved. */
  provider?: string;
  stop: TranscriptStop;
  /** Model calls made (the agent's turns). */
  turns: number;
  /** The turn limit the run had. */
  maxTurns: number;
  entries: TranscriptEntry[];
  /** A sentence for a run that did not end with a final reply. */
  stopNote?: string;
}

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
