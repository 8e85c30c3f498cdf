import type Anthropic from "@anthropic-ai/sdk";
import { estimateTokens } from "../engine/cost";
import type { JudgeCallContext, TokenUsage } from "../engine/judge-port";
import type { AgentCallRecord, LiveOutcome, LiveRequest } from "../engine/live-port";
import { createTranscriptBuilder } from "./build-transcript";
import type { ServerConnection } from "./server-connection";
import { toAnthropicTools } from "./agent-tools";

// The agent loop: Claude with the server's tools, until a final reply, the
// turn limit or the time limit. Each model call goes through the engine's
// scheduler (concurrency, budget) and lib/judge's retrying sender (passed in
// as `messages`, so judge and agent share one retry policy). Tool calls go
// through MCP; their results go back to the model whole (up to a sanity cap)
// and into the transcript redacted and cut to max_result_chars.

/** What lib/judge's createRetryingMessages provides; a structural type, as lib/live does not import lib/judge. */
export interface MessagesSender {
  send(
    body: Anthropic.MessageCreateParamsNonStreaming,
    state: { attempts: number; usage: TokenUsage },
    context: JudgeCallContext,
  ): Promise<{ ok: true; message: Anthropic.Message } | { ok: false; failure: { kind: string; status: string; message: string }; attempts: number }>;
}

/** A result longer than this is cut before it goes back to the model, to keep the context window sane. */
const MODEL_RESULT_CHARS = 100_000;
const EPHEMERAL = { type: "ephemeral" } as const;

export interface RunAgentInput {
  request: LiveRequest;
  connection: ServerConnection;
  messages: MessagesSender;
  now: () => number;
}

/** The conversation with one cache breakpoint, on the last block of the last turn, so each turn reads the previous ones from the cache. */
function withBreakpoint(history: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const last = history.at(-1);
  // The loop always ends the conversation on a user turn (the prompt, or tool results).
  if (!last || last.role !== "user") return history;
  const blocks: Anthropic.ContentBlockParam[] = typeof last.content === "string" ? [{ type: "text", text: last.content }] : [...last.content];
  const tail = blocks.at(-1);
  if (tail && (tail.type === "text" || tail.type === "tool_result")) blocks[blocks.length - 1] = { ...tail, cache_control: EPHEMERAL };
  return [...history.slice(0, -1), { role: "user", content: blocks }];
}

export async function runAgent(input: RunAgentInput): Promise<LiveOutcome> {
  const { request, connection, messages, now } = input;
  const { agent } = request;
  const transcript = createTranscriptBuilder({ server: request.serverName, model: agent.model, maxTurns: agent.maxTurns, maxResultChars: agent.maxResultChars });
  const calls: AgentCallRecord[] = [];
  const { tools, mcpName } = toAnthropicTools(connection.tools);

  // The time limit and an interruption of the whole run both abort what is in flight.
  const limit = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    limit.abort();
  }, agent.timeoutSeconds * 1000);
  const onRunAbort = () => limit.abort();
  request.signal?.addEventListener("abort", onRunAbort, { once: true });
  const interrupted = () => request.signal?.aborted === true && !timedOut;
  const timeoutNote = () => `The agent stopped: its time limit of ${agent.timeoutSeconds} s was reached before a final reply.`;

  const history: Anthropic.MessageParam[] = [{ role: "user", content: request.prompt }];
  transcript.user(request.prompt);
  try {
    while (transcript.turns < agent.maxTurns) {
      const body: Anthropic.MessageCreateParamsNonStreaming = {
        model: agent.model,
        max_tokens: agent.maxTokens,
        ...(agent.system !== undefined ? { system: agent.system } : {}),
        ...(tools.length > 0 ? { tools } : {}),
        messages: withBreakpoint(history),
      };
      const estimate = { model: agent.model, inputTokens: estimateTokens(JSON.stringify(body)), maxTokens: agent.maxTokens };
      const scheduled = await request.schedule(estimate, async (slot) => {
        const state = { attempts: 0, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
        const started = now();
        const sent = await messages.send(body, state, { slot, signal: limit.signal });
        return { value: { sent, attempts: state.attempts, latencyMs: now() - started, usage: state.usage }, usage: state.usage };
      });
      if (scheduled.skipped) return { kind: "skipped", reason: scheduled.reason, transcript: transcript.build("skipped"), calls };
      const { sent, attempts, latencyMs, usage } = scheduled.value;
      // A call the time limit stopped before it was sent is not a turn.
      if (attempts > 0) {
        transcript.turn();
        calls.push({ model: agent.model, attempts, latencyMs, usage, costUsd: null, ...(sent.ok ? {} : { error: `${sent.failure.kind}: ${sent.failure.message}` }) });
      }
      if (!sent.ok) {
        if (timedOut) return { kind: "transcript", transcript: transcript.build("timeout", timeoutNote()), calls };
        if (interrupted()) return { kind: "skipped", reason: "interrupted", transcript: transcript.build("skipped"), calls };
        const { kind, message, status } = sent.failure;
        const error = `the agent's model call failed: ${kind}: ${message} (${sent.attempts} attempt${sent.attempts === 1 ? "" : "s"}, last status ${status})`;
        return { kind: "error", message: error, transcript: transcript.build("error", error), calls };
      }

      const reply = sent.message;
      const text = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n").trim();
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      if (uses.length === 0) {
        transcript.final(text);
        return { kind: "transcript", transcript: transcript.build("final"), calls };
      }
      if (text) transcript.assistant(text);
      history.push({
        role: "assistant",
        content: reply.content.flatMap((b): Anthropic.ContentBlockParam[] =>
          b.type === "text" && b.text.length > 0 ? [{ type: "text", text: b.text }] : b.type === "tool_use" ? [{ type: "tool_use", id: b.id, name: b.name, input: b.input }] : [],
        ),
      });

      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const use of uses) {
        const name = mcpName(use.name);
        const started = now();
        const outcome = await connection.callTool({ name, arguments: use.input, signal: limit.signal });
        if (outcome.kind === "aborted") {
          if (interrupted()) return { kind: "skipped", reason: "interrupted", transcript: transcript.build("skipped"), calls };
          transcript.toolCall({ name, arguments: use.input, result: "(no result: the time limit was reached during this call)", isError: true, durationMs: now() - started });
          return { kind: "transcript", transcript: transcript.build("timeout", timeoutNote()), calls };
        }
        if (outcome.kind === "server_gone") {
          transcript.toolCall({ name, arguments: use.input, result: "(no result: the server went away)", isError: true, durationMs: now() - started });
          const error = `server "${request.serverName}" ${outcome.message}, during tool call "${name}"`;
          return { kind: "error", message: error, transcript: transcript.build("error", error), serverStderr: connection.stderrTail(), calls };
        }
        transcript.toolCall({ name, arguments: use.input, result: outcome.text, isError: outcome.isError, durationMs: now() - started });
        const forModel = outcome.text.length > MODEL_RESULT_CHARS ? `${outcome.text.slice(0, MODEL_RESULT_CHARS)}\n[… truncated]` : outcome.text;
        results.push({ type: "tool_result", tool_use_id: use.id, content: forModel, ...(outcome.isError ? { is_error: true } : {}) });
      }
      history.push({ role: "user", content: results });
    }
    const note = `The agent stopped: its turn limit of ${agent.maxTurns} model call${agent.maxTurns === 1 ? "" : "s"} was reached before a final reply.`;
    return { kind: "transcript", transcript: transcript.build("max_turns", note), calls };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onRunAbort);
  }
}
