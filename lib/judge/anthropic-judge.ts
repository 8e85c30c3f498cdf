import Anthropic from "@anthropic-ai/sdk";
import { z } from "zod";
import { costOf } from "../engine/cost";
import type {
  JudgeCallContext,
  JudgeCallRecord,
  JudgeErrorKind,
  JudgeOutcome,
  JudgePort,
  JudgeRequest,
  JudgeSlot,
  TokenUsage,
  VerdictKind,
} from "../engine/judge-port";
import { VERDICT_TOOL_NAME, verdictSchemaFor } from "../engine/verdict";
import { createNodeHttpFetch } from "./node-http-fetch";
import { priceOf } from "./pricing";
import { backoffMs, classifyFailure, type AttemptFailure } from "./retry-policy";
import { readVerdict, repairTurns } from "./verdict-reply";

// The judge port over the Anthropic Messages API (DESIGN.md, the judge
// protocol): one request per verdict, a forced tool call whose input is the
// verdict, the stable prompt first with a cache breakpoint, our own retries
// that give the concurrency slot back while they wait, one repair attempt for
// a reply that does not parse.

export interface AnthropicJudgeOptions {
  apiKey: string;
  /** Defaults to what the SDK reads from ANTHROPIC_BASE_URL, else the public API. */
  baseURL?: string;
  /** Per HTTP attempt. */
  timeoutMs?: number;
  /** Retries after the first attempt, for each of the request and its repair. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 4;
const TOOL_DESCRIPTION =
  "Record your verdict on the candidate. Write the reasoning first, then the score; quote evidence verbatim from the candidate.";

// Built once: converting a zod schema to JSON Schema on every call would cost
// more CPU than the rest of the call's own work.
const VERDICT_TOOLS: Record<VerdictKind, Anthropic.Tool[]> = {
  score: [verdictTool("score")],
  score_with_evidence: [verdictTool("score_with_evidence")],
};
const TOOL_CHOICE: Anthropic.ToolChoiceTool = { type: "tool", name: VERDICT_TOOL_NAME };

function verdictTool(kind: VerdictKind): Anthropic.Tool {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(verdictSchemaFor(kind));
  return { name: VERDICT_TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: { ...schema, type: "object" } };
}


type Sent = { ok: true; message: Anthropic.Message } | { ok: false; failure: AttemptFailure; attempts: number };

/** What one grade call accumulates across its attempts. */
interface CallState {
  attempts: number;
  usage: TokenUsage;
}

export function createAnthropicJudge(options: AnthropicJudgeOptions): JudgePort {
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: 0,
    // CPU per call matters at thousands of calls a run: node:http instead of
    // the global fetch, and no OpenTelemetry spans (about 0.3 ms a call even
    // with no tracer registered). The call record carries what we measure.
    fetch: createNodeHttpFetch(),
    openTelemetry: false,
  });
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  /** One Messages API request, retried; returns holding the slot, whatever happened. */
  async function send(
    body: Anthropic.MessageCreateParamsNonStreaming,
    state: CallState,
    { slot, signal }: JudgeCallContext,
  ): Promise<Sent> {
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) return { ok: false, failure: aborted(), attempts: retry };
      state.attempts++;
      try {
        const message = await client.messages.create(body, signal ? { signal } : undefined);
        addUsage(state.usage, message.usage);
        return { ok: true, message };
      } catch (error) {
        const failure = classifyFailure(error, now);
        if (!failure.retryable || retry >= maxRetries) return { ok: false, failure, attempts: retry + 1 };
        await waitWithoutSlot(failure.retryAfterMs ?? backoffMs(retry, random), slot, signal);
      }
    }
  }

  async function waitWithoutSlot(ms: number, slot: JudgeSlot, signal: AbortSignal | undefined): Promise<void> {
    slot.release();
    try {
      await (sleep ? abortable(sleep(ms), signal) : sleepUnlessAborted(ms, signal));
    } finally {
      // Taken again even after an abort: the caller releases the slot when grade returns.
      await slot.acquire();
    }
  }

  async function grade(request: JudgeRequest, context: JudgeCallContext): Promise<JudgeOutcome> {
    const started = now();
    const state: CallState = { attempts: 0, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
    const price = priceOf(request.model);
    const record = (raw: unknown): JudgeCallRecord => ({
      model: request.model,
      templateVersion: request.templateVersion,
      attempts: state.attempts,
      latencyMs: now() - started,
      usage: state.usage,
      costUsd: price ? costOf(price, state.usage) : null,
      ...(raw === undefined ? {} : { raw }),
    });
    const failed = (kind: JudgeErrorKind, message: string, raw?: unknown): JudgeOutcome => ({
      ok: false,
      error: { kind, message },
      call: record(raw),
    });

    const schema = verdictSchemaFor(request.verdict);
    // No `temperature`: API version 2026-10-21, which this SDK major sends,
    // rejects temperature, top_p and top_k with a 400 even at their defaults,
    // and the SDK's types no longer have them; so the language has no such field.
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      model: request.model,
      max_tokens: request.maxTokens,
      system: [{ type: "text", text: request.stablePrompt, cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: request.candidatePrompt }],
      tools: VERDICT_TOOLS[request.verdict],
      tool_choice: TOOL_CHOICE,
    };

    const first = await send(body, state, context);
    if (!first.ok) return failed(first.failure.kind, describeFailure(first));
    const reading = readVerdict(first.message, schema);
    if (reading.ok) return { ok: true, verdict: reading.verdict, call: record(reading.raw) };

    const repairBody = { ...body, messages: [...body.messages, ...repairTurns(first.message, reading.problem)] };
    const second = await send(repairBody, state, context);
    if (!second.ok) {
      return failed(second.failure.kind, `${describeFailure(second)} (while repairing: ${reading.problem})`, reading.raw);
    }
    const repaired = readVerdict(second.message, schema);
    if (repaired.ok) return { ok: true, verdict: repaired.verdict, call: record(repaired.raw) };
    return failed("malformed", `no valid verdict after one repair attempt: ${repaired.problem}`, repaired.raw);
  }

  return { grade };
}

function describeFailure(sent: { failure: AttemptFailure; attempts: number }): string {
  const { failure, attempts } = sent;
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  return `${failure.message} (${tries}, last status ${failure.status})`;
}

function aborted(): AttemptFailure {
  return { kind: "request", retryable: false, status: "aborted", message: "the judge call was aborted" };
}

function addUsage(total: TokenUsage, usage: Anthropic.Usage | undefined): void {
  if (!usage) return;
  total.input += usage.input_tokens;
  total.output += usage.output_tokens;
  total.cacheWrite += usage.cache_creation_input_tokens ?? 0;
  total.cacheRead += usage.cache_read_input_tokens ?? 0;
}

/** A timer that is cleared on abort, so that an aborted run leaves no long retry-after timers behind. */
function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Resolves when `promise` does or the signal aborts, whichever comes first. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
