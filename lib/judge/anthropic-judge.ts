import Anthropic from "@anthropic-ai/sdk";
import * as z from "zod";
import type {
  JudgeCallContext,
  JudgeOutcome,
  JudgeRequest,
  TypedJudgePort,
  VerdictKind,
} from "../engine/ports/judge-port";
import {
  VERDICT_TOOL_NAME,
  replySchemaFor,
  verdictSchemaFor,
  type Verdict,
} from "../engine/ports/verdict";
import { priceOf } from "./pricing";
import type { AttemptFailure } from "./retry-policy";
import { openCallLedger } from "./call-ledger";
import { DEFAULT_MAX_RETRIES, createRetryingMessages } from "./retrying-messages";
import { readVerdict, repairTurns } from "./verdict-reply";
import {
  cacheMissNotice,
  cachePrefixes,
  layoutRequest,
  MESSAGES_API_TEMPERATURE,
} from "./request-layout";

// The judge port over the Anthropic Messages API (DESIGN.md, the judge
// protocol): one request per verdict, a forced tool call whose input is the
// verdict, the shared prefixes first behind cache breakpoints (request-layout.ts), our own retries
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
const TOOL_DESCRIPTION =
  "Record your verdict on the candidate. Write the reasoning first, then the score; quote evidence verbatim from the candidate.";
const REVIEW_TOOL_DESCRIPTION =
  "Record your review of the document. Write the reasoning first, then the score (pass, partial or fail), the evidence quoted verbatim, and the findings.";
const PAIRWISE_TOOL_DESCRIPTION =
  "Record which of the two responses is better. Write the reasoning first, then the winner and your confidence.";

// Built once per kind, at its first call: converting a zod schema to JSON
// Schema on every call would cost more CPU than the rest of the call's own
// work, and building all six at start-up would delay every run's first call.
const VERDICT_TOOLS: Partial<Record<VerdictKind, Anthropic.Tool[]>> = {};
const verdictTools = (kind: VerdictKind): Anthropic.Tool[] =>
  (VERDICT_TOOLS[kind] ??= [verdictTool(kind)]);
const TOOL_CHOICE: Anthropic.ToolChoiceTool = { type: "tool", name: VERDICT_TOOL_NAME };

function verdictTool(kind: VerdictKind): Anthropic.Tool {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(verdictSchemaFor(kind));
  const description =
    kind === "pairwise"
      ? PAIRWISE_TOOL_DESCRIPTION
      : kind.startsWith("category")
        ? REVIEW_TOOL_DESCRIPTION
        : TOOL_DESCRIPTION;
  return { name: VERDICT_TOOL_NAME, description, input_schema: { ...schema, type: "object" } };
}

/** The Messages API body of a judge request (also what a message batch sends for it), and its cache layout. */
export function judgeBodyOf(
  request: JudgeRequest<VerdictKind>,
  cacheTtl: JudgeCallContext["cacheTtl"],
) {
  const layout = layoutRequest(request, cacheTtl);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    system: layout.system,
    messages: layout.messages,
    tools: verdictTools(request.verdict),
    tool_choice: TOOL_CHOICE,
  };
  return { body, layout };
}

export function createAnthropicJudge(options: AnthropicJudgeOptions): TypedJudgePort {
  // The retries live in retrying-messages.ts, shared with the live agent (lib/live).
  const messages = createRetryingMessages({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const send = messages.send;
  const now = options.now ?? Date.now;

  async function grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>> {
    const { state, record, failed } = openCallLedger({
      request,
      price: priceOf(request.model),
      now,
      temperature: MESSAGES_API_TEMPERATURE,
    });

    const schema = replySchemaFor(request);
    // No `temperature`: API version 2026-10-21, which this SDK major sends,
    // rejects temperature, top_p and top_k with a 400 even at their defaults,
    // and the SDK's types no longer have them; so the language has no such field.
    const { body, layout } = judgeBodyOf(request, context.cacheTtl);

    const first = await send(body, state, context);
    if (!first.ok) return failed(first.failure.kind, describeFailure(first));
    const notice = cacheMissNotice({
      model: request.model,
      expectedCachedTokens: layout.expectedCachedTokens,
      usage: state.usage,
    });
    const noted = <O extends JudgeOutcome<Verdict>>(outcome: O): O =>
      notice === undefined ? outcome : { ...outcome, notice };
    const reading = readVerdict(first.message, schema);
    if (reading.ok) return noted({ ok: true, verdict: reading.verdict, call: record(reading.raw) });

    const repairBody = {
      ...body,
      messages: [...body.messages, ...repairTurns(first.message, reading.problem)],
    };
    const second = await send(repairBody, state, context);
    if (!second.ok) {
      return noted(
        failed(
          second.failure.kind,
          `${describeFailure(second)} (while repairing: ${reading.problem})`,
          reading.raw,
        ),
      );
    }
    state.repaired = true;
    const repaired = readVerdict(second.message, schema);
    if (repaired.ok)
      return noted({ ok: true, verdict: repaired.verdict, call: record(repaired.raw) });
    return noted(
      failed(
        "malformed",
        `no valid verdict after one repair attempt: ${repaired.problem}`,
        repaired.raw,
      ),
    );
  }

  // One implementation for every verdict kind; the overloads only narrow the type of score outcomes.
  return { grade, cachePrefixes } as TypedJudgePort;
}

function describeFailure(sent: { failure: AttemptFailure; attempts: number }): string {
  const { failure, attempts } = sent;
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  return `${failure.message} (${tries}, last status ${failure.status})`;
}
