import type { JudgeCallContext, TokenUsage } from "../engine/ports/judge-port";

// What the agent loop (run-agent.ts) needs of a model's API, whatever its
// vendor: one conversation that sends itself and keeps the model's turns and
// the tool results in that API's own shapes. One module per wire protocol:
// messages-dialect.ts (Anthropic's Messages API), chat-dialect.ts
// (OpenAI-compatible Chat Completions).

/**
 * What one model call accumulates across its attempts (the shape of lib/judge's CallState; lib/live
 * does not import lib/judge).
 */
export interface CallState {
  attempts: number;
  usage: TokenUsage;
}

/** A failed model call, as lib/judge's retrying senders report it after their retries. */
export interface SendFailure {
  kind: string;
  status: string;
  message: string;
}

export interface AgentToolCall {
  id: string;
  /** As offered to the model (a safe alias of the MCP name, see agent-tools.ts). */
  name: string;
  input: unknown;
}

export type AgentTurn =
  /** The model's reply, already added to the conversation: its text, and the tools it calls (none: the final reply). */
  | { ok: true; text: string; toolCalls: AgentToolCall[] }
  /** The call failed for good (after the retries). */
  | { ok: false; failure: SendFailure; attempts: number }
  /** The call was answered with a reply the loop cannot act on (a tool call whose arguments are not JSON...). */
  | { ok: false; malformed: string };

export interface ToolResult {
  id: string;
  text: string;
  isError: boolean;
}

export interface AgentDialect {
  /** The request the next call would send, serialised: its size is the budget's estimate. */
  nextRequest(): string;
  send(state: CallState, context: JudgeCallContext): Promise<AgentTurn>;
  addToolResults(results: ToolResult[]): void;
  /** The MCP tool an offered name stands for. */
  mcpName(name: string): string;
}
