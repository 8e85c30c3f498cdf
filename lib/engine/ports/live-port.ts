import type { AgentConfig, ServerConfig } from "../../config/types";
import type { JudgeSlot, Scheduled, SkipKind, TokenUsage } from "./judge-port";

// The live port: how the engine gets the candidate of an eval without a
// response: a tool-using agent run against an MCP server, or (no server) a
// model's answer to the prompt with no tools, a live run of one turn. The adapter (lib/live) starts the MCP server, runs the agent and
// builds the transcript; the engine stays pure and only grades what it gets.
// Agent model calls run through `schedule`, so they share the run's
// concurrency limit and --max-cost budget with the judge calls.

export interface LiveAgentSettings extends AgentConfig {
  /** Resolved: the matrix's agent, the eval's or suite's agent.model, or the default. */
  model: string;
  /** The provider the model resolved to (anthropic, openai, or one under providers:), when the caller resolves models. */
  provider?: string;
}

/** One agent model call as it was made. */
export interface AgentCallRecord {
  model: string;
  attempts: number;
  latencyMs: number;
  usage: TokenUsage;
  /** Filled in by the engine from the pricing table; null for an unknown model. */
  costUsd: number | null;
  error?: string;
}

export interface AgentCallEstimate {
  model: string;
  inputTokens: number;
  maxTokens: number;
}

export interface LiveRequest {
  /** The cell's id, for logs. */
  cellId: string;
  /**
   * The MCP server whose tools the agent uses. Without one (a generated
   * candidate) the model answers the prompt in one request with no tools.
   */
  serverName?: string;
  server?: ServerConfig;
  prompt: string;
  agent: LiveAgentSettings;
  signal?: AbortSignal;
  /**
   * Runs one agent model call under the run's concurrency limit and budget.
   * `work` holds the slot (and may give it back while it waits out a retry);
   * it returns the call's usage, which the engine prices.
   */
  schedule<T>(
    estimate: AgentCallEstimate,
    work: (slot: JudgeSlot) => Promise<{ value: T; usage: TokenUsage }>,
  ): Promise<Scheduled<T>>;
}

// The transcript of a live agent run: lib/live builds it, results/transcript.ts renders it.

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

export type LiveOutcome =
  /** The run finished (a final reply, or a turn or time limit): grade the transcript. */
  | { kind: "transcript"; transcript: Transcript; calls: AgentCallRecord[] }
  /** It could not run here (server unreachable, not allowed...): reported deferred with this note. */
  | { kind: "deferred"; reason: string }
  /** It broke mid-run (the server died, the agent's model failed): that eval fails with this message. */
  | {
      kind: "error";
      message: string;
      transcript?: Transcript;
      serverStderr?: string;
      calls: AgentCallRecord[];
    }
  /** The budget or an interruption stopped it before it finished. */
  | { kind: "skipped"; reason: SkipKind; transcript?: Transcript; calls: AgentCallRecord[] };

export interface LivePort {
  run(request: LiveRequest): Promise<LiveOutcome>;
}
