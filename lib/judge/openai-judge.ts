import OpenAI from "openai";
import type { ModelPrice } from "../engine/cost/cost";
import type {
  JudgeCallContext,
  JudgeOutcome,
  JudgeRequest,
  TypedJudgePort,
  VerdictKind,
} from "../engine/ports/judge-port";
import { VERDICT_TOOL_NAME, replySchemaFor, type Verdict } from "../engine/ports/verdict";
import { readReply, repairMessages, strictSchemaFor, type StructuredMode } from "./openai-reply";
import type { AttemptFailure } from "./retry-policy";
import { openCallLedger } from "./call-ledger";
import { createRetryLoop, type Attempted } from "./retry-loop";
import { addChatUsage, createOpenAIClient } from "./retrying-chat";

// The judge port over an OpenAI-compatible Chat Completions endpoint (OpenAI,
// vLLM, Ollama, llama.cpp's server, a LiteLLM proxy): the same protocol as the
// Anthropic adapter. The verdict is a forced tool call; an endpoint that
// answers 400 to tools is asked with a strict json_schema response format, and
// one that rejects that too is asked for plain JSON, parsed strictly. What a
// model accepted is remembered for its later calls. Same retry loop, same
// repair-once rule.

export interface OpenAIJudgeOptions {
  /** Optional: a local server may need none (a placeholder is sent). */
  apiKey?: string;
  baseURL: string;
  /** Per HTTP attempt. */
  timeoutMs: number;
  /** OpenAI's own API wants max_completion_tokens (the o-series rejects max_tokens); local servers know max_tokens. */
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  priceOf: (model: string) => ModelPrice | undefined;
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const MODES: readonly StructuredMode[] = ["tools", "json_schema", "json"];
const TOOL_DESCRIPTION =
  "Record your verdict. Write the reasoning first, then the score; quote evidence verbatim from the candidate.";
const JSON_INSTRUCTION =
  "Reply with only one JSON object, no other text, matching this JSON Schema (reasoning first, then the score):";

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type Param = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export function createOpenAIJudge(options: OpenAIJudgeOptions): TypedJudgePort {
  const client = createOpenAIClient(options);
  const loop = createRetryLoop({ ...options, sdkErrors: OpenAI });
  const now = options.now ?? Date.now;
  const tokenField = options.maxTokensField ?? "max_completion_tokens";
  // What each model's endpoint accepted; a model starts at forced tool calls.
  const modeOf = new Map<string, StructuredMode>();

  const bodyOf = (
    request: JudgeRequest<VerdictKind>,
    mode: StructuredMode,
    messages: Param[],
  ): Body => {
    const schema = strictSchemaFor(request.verdict);
    const base = { model: request.model, messages, [tokenField]: request.maxTokens } as Body;
    if (mode === "tools") {
      return {
        ...base,
        tools: [
          {
            type: "function",
            function: {
              name: VERDICT_TOOL_NAME,
              description: TOOL_DESCRIPTION,
              parameters: schema,
              strict: true,
            },
          },
        ],
        tool_choice: { type: "function", function: { name: VERDICT_TOOL_NAME } },
      };
    }
    if (mode === "json_schema")
      return {
        ...base,
        response_format: {
          type: "json_schema",
          json_schema: { name: VERDICT_TOOL_NAME, schema, strict: true },
        },
      };
    return base;
  };
  const firstMessages = (request: JudgeRequest<VerdictKind>, mode: StructuredMode): Param[] => {
    // The stable prompt first, then the candidate, then the one criterion to
    // grade now: the endpoint's automatic prefix cache reuses the longest
    // shared prefix, as Anthropic's breakpoints do (build-prompt.ts).
    const system =
      mode === "json"
        ? `${request.stablePrompt}\n\n${JSON_INSTRUCTION}\n${JSON.stringify(strictSchemaFor(request.verdict))}`
        : request.stablePrompt;
    return [
      { role: "system", content: system },
      { role: "user", content: `${request.candidatePrompt}\n\n${request.taskPrompt}` },
    ];
  };

  async function grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>> {
    const { state, record, failed } = openCallLedger({
      request,
      price: options.priceOf(request.model),
      now,
    });
    const send = async (body: Body): Promise<Attempted<Completion>> => {
      const sent = await loop.run(
        (signal) => client.chat.completions.create(body, signal ? { signal } : undefined),
        state,
        context,
      );
      if (sent.ok) {
        addChatUsage(state.usage, sent.value.usage);
        state.modelVersion = sent.value.model;
      }
      return sent;
    };

    let mode = modeOf.get(request.model) ?? "tools";
    let messages = firstMessages(request, mode);
    let first = await send(bodyOf(request, mode, messages));
    // A 400 to tools or to a response format: the endpoint does not support it; ask the next way.
    while (!first.ok && first.failure.status === "400" && mode !== "json") {
      mode = MODES[MODES.indexOf(mode) + 1]!;
      messages = firstMessages(request, mode);
      first = await send(bodyOf(request, mode, messages));
    }
    if (!first.ok) return failed(first.failure.kind, describeFailure(first));
    modeOf.set(request.model, mode);

    const schema = replySchemaFor(request);
    const reading = readReply({ completion: first.value, mode, schema });
    if (reading.ok) return { ok: true, verdict: reading.verdict, call: record(reading.raw) };
    const message = first.value.choices?.[0]?.message ?? {
      role: "assistant",
      content: "",
      refusal: null,
    };
    const repair = [...messages, ...repairMessages({ message, mode, problem: reading.problem })];
    const second = await send(bodyOf(request, mode, repair));
    if (!second.ok)
      return failed(
        second.failure.kind,
        `${describeFailure(second)} (while repairing: ${reading.problem})`,
        reading.raw,
      );
    state.repaired = true;
    const repaired = readReply({ completion: second.value, mode, schema });
    if (repaired.ok) return { ok: true, verdict: repaired.verdict, call: record(repaired.raw) };
    return failed(
      "malformed",
      `no valid verdict after one repair attempt: ${repaired.problem}`,
      repaired.raw,
    );
  }

  // One implementation for every verdict kind; the overloads only narrow the type of score outcomes.
  return { grade } as TypedJudgePort;
}

function describeFailure(sent: { failure: AttemptFailure; attempts: number }): string {
  const { failure, attempts } = sent;
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  return `${failure.message} (${tries}, last status ${failure.status})`;
}
