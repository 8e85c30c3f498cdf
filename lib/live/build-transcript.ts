import { redactSecrets } from "../engine/results/redact-secrets";
import type { Transcript, TranscriptEntry, TranscriptStop } from "../engine/results/transcript";

// Builds the transcript of one agent run as it happens. Every text is
// redacted on the way in: the transcript goes to the judge (a third party to
// the server's data) and into reports, CI logs and the store. Redaction comes
// before truncation, so that a cut never leaves half a credential readable.

export interface TranscriptBuilder {
  user(text: string): void;
  assistant(text: string): void;
  toolCall(input: {
    name: string;
    arguments: unknown;
    result: string;
    isError: boolean;
    durationMs: number;
  }): void;
  final(text: string): void;
  turn(): void;
  readonly turns: number;
  build(stop: TranscriptStop, stopNote?: string): Transcript;
}

/** Arguments are redacted as JSON text, so `"api_key": "..."` pairs are caught, then parsed back. */
function redactArguments(value: unknown): unknown {
  if (value === undefined) return {};
  const text = JSON.stringify(value);
  if (text === undefined) return {};
  const redacted = redactSecrets(text);
  if (redacted === text) return value;
  try {
    return JSON.parse(redacted) as unknown;
  } catch {
    return redacted;
  }
}

export function createTranscriptBuilder(input: {
  server: string;
  model: string;
  provider?: string;
  maxTurns: number;
  maxResultChars: number;
}): TranscriptBuilder {
  const entries: TranscriptEntry[] = [];
  let turns = 0;
  return {
    user: (text) => entries.push({ kind: "user", text: redactSecrets(text) }),
    assistant: (text) => entries.push({ kind: "assistant", text: redactSecrets(text) }),
    final: (text) => entries.push({ kind: "final", text: redactSecrets(text) }),
    toolCall({ name, arguments: args, result, isError, durationMs }) {
      const redacted = redactSecrets(result);
      const truncated = redacted.length > input.maxResultChars;
      entries.push({
        kind: "tool_call",
        name,
        arguments: redactArguments(args),
        result: truncated ? redacted.slice(0, input.maxResultChars) : redacted,
        isError,
        ...(truncated ? { truncatedFrom: redacted.length } : {}),
        durationMs,
      });
    },
    turn: () => {
      turns++;
    },
    get turns() {
      return turns;
    },
    build: (stop, stopNote) => ({
      server: input.server,
      model: input.model,
      ...(input.provider !== undefined ? { provider: input.provider } : {}),
      stop,
      turns,
      maxTurns: input.maxTurns,
      entries: [...entries],
      ...(stopNote !== undefined ? { stopNote } : {}),
    }),
  };
}
