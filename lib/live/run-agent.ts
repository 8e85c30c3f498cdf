import { estimateTokens } from "../engine/cost/cost";
import type { AgentCallRecord, LiveOutcome, LiveRequest } from "../engine/ports/live-port";
import type { AgentDialect, AgentTurn, ToolResult } from "./agent-dialect";
import { createTranscriptBuilder } from "./build-transcript";
import type { ServerConnection } from "./server-connection";

// The agent loop: the model with the server's tools, until a final reply, the
// turn limit or the time limit, whatever the model's vendor (the dialect
// speaks its API). Each model call goes through the engine's scheduler
// (concurrency, budget) and lib/judge's retrying sender (inside the dialect,
// so judge and agent share one retry policy). Tool calls go through MCP;
// their results go back to the model whole (up to a sanity cap) and into the
// transcript redacted and cut to max_result_chars.

/** A result longer than this is cut before it goes back to the model, to keep the context window sane. */
const MODEL_RESULT_CHARS = 100_000;

export interface RunAgentInput {
  request: LiveRequest;
  /** None for a generated candidate (no server, no tools). */
  connection?: ServerConnection;
  dialect: AgentDialect;
  now: () => number;
}

export async function runAgent(input: RunAgentInput): Promise<LiveOutcome> {
  const { request, connection, dialect, now } = input;
  const { agent } = request;
  const transcript = createTranscriptBuilder({
    server: request.serverName ?? "",
    model: agent.model,
    ...(agent.provider !== undefined ? { provider: agent.provider } : {}),
    maxTurns: agent.maxTurns,
    maxResultChars: agent.maxResultChars,
  });
  const calls: AgentCallRecord[] = [];

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
  const timeoutNote = () =>
    `The agent stopped: its time limit of ${agent.timeoutSeconds} s was reached before a final reply.`;
  const failed = (error: string): LiveOutcome => ({
    kind: "error",
    message: error,
    transcript: transcript.build("error", error),
    calls,
  });

  transcript.user(request.prompt);
  try {
    while (transcript.turns < agent.maxTurns) {
      const estimate = {
        model: agent.model,
        inputTokens: estimateTokens(dialect.nextRequest()),
        maxTokens: agent.maxTokens,
      };
      const scheduled = await request.schedule(estimate, async (slot) => {
        const state = { attempts: 0, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
        const started = now();
        // A reply in a shape the dialect cannot read (a hostile or broken server) ends the run as
        // an error, never the process.
        const sent: AgentTurn = await dialect
          .send(state, { slot, signal: limit.signal })
          .catch((error: unknown) => ({
            ok: false,
            malformed: `the reply could not be read (${error instanceof Error ? error.message : String(error)})`,
          }));
        return {
          value: { sent, attempts: state.attempts, latencyMs: now() - started, usage: state.usage },
          usage: state.usage,
        };
      });
      if (scheduled.skipped)
        return {
          kind: "skipped",
          reason: scheduled.reason,
          transcript: transcript.build("skipped"),
          calls,
        };
      const { sent, attempts, latencyMs, usage } = scheduled.value;
      const problem = sent.ok
        ? undefined
        : "malformed" in sent
          ? `malformed: ${sent.malformed}`
          : `${sent.failure.kind}: ${sent.failure.message}`;
      // A call the time limit stopped before it was sent is not a turn.
      if (attempts > 0) {
        transcript.turn();
        calls.push({
          model: agent.model,
          attempts,
          latencyMs,
          usage,
          costUsd: null,
          ...(problem !== undefined ? { error: problem } : {}),
        });
      }
      if (!sent.ok) {
        if ("malformed" in sent)
          return failed(
            `the agent's model ${agent.model} sent a malformed reply at turn ${transcript.turns}: ${sent.malformed}`,
          );
        if (timedOut)
          return {
            kind: "transcript",
            transcript: transcript.build("timeout", timeoutNote()),
            calls,
          };
        if (interrupted())
          return {
            kind: "skipped",
            reason: "interrupted",
            transcript: transcript.build("skipped"),
            calls,
          };
        const { kind, message, status } = sent.failure;
        return failed(
          `the agent's model call failed: ${kind}: ${message} (${sent.attempts} attempt${sent.attempts === 1 ? "" : "s"}, last status ${status})`,
        );
      }

      if (sent.toolCalls.length === 0) {
        transcript.final(sent.text);
        return { kind: "transcript", transcript: transcript.build("final"), calls };
      }
      if (sent.text) transcript.assistant(sent.text);
      if (!connection)
        return failed(
          `the model ${agent.model} asked for tool "${sent.toolCalls[0]!.name}", but a generated candidate has no tools`,
        );

      const results: ToolResult[] = [];
      for (const use of sent.toolCalls) {
        const name = dialect.mcpName(use.name);
        const started = now();
        const outcome = await connection.callTool({
          name,
          arguments: use.input,
          signal: limit.signal,
        });
        if (outcome.kind === "aborted") {
          if (interrupted())
            return {
              kind: "skipped",
              reason: "interrupted",
              transcript: transcript.build("skipped"),
              calls,
            };
          transcript.toolCall({
            name,
            arguments: use.input,
            result: "(no result: the time limit was reached during this call)",
            isError: true,
            durationMs: now() - started,
          });
          return {
            kind: "transcript",
            transcript: transcript.build("timeout", timeoutNote()),
            calls,
          };
        }
        if (outcome.kind === "server_gone") {
          transcript.toolCall({
            name,
            arguments: use.input,
            result: "(no result: the server went away)",
            isError: true,
            durationMs: now() - started,
          });
          const error = `server "${request.serverName}" ${outcome.message}, during tool call "${name}"`;
          return {
            kind: "error",
            message: error,
            transcript: transcript.build("error", error),
            serverStderr: connection.stderrTail(),
            calls,
          };
        }
        transcript.toolCall({
          name,
          arguments: use.input,
          result: outcome.text,
          isError: outcome.isError,
          durationMs: now() - started,
        });
        const forModel =
          outcome.text.length > MODEL_RESULT_CHARS
            ? `${outcome.text.slice(0, MODEL_RESULT_CHARS)}\n[… truncated]`
            : outcome.text;
        results.push({ id: use.id, text: forModel, isError: outcome.isError });
      }
      dialect.addToolResults(results);
    }
    const note = `The agent stopped: its turn limit of ${agent.maxTurns} model call${agent.maxTurns === 1 ? "" : "s"} was reached before a final reply.`;
    return { kind: "transcript", transcript: transcript.build("max_turns", note), calls };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onRunAbort);
  }
}
