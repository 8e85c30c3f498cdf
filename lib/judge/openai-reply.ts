import type OpenAI from "openai";
import * as z from "zod";
import {
  VERDICT_TOOL_NAME,
  verdictSchemaFor,
  type Verdict,
  type VerdictKind,
} from "../engine/ports/verdict";

// Reading a verdict out of a Chat Completions reply, in each of the three ways
// an OpenAI-compatible endpoint may be asked for one, and the turns of the one
// repair attempt (DESIGN.md house rule 4: a reply that does not parse never
// becomes a score).

/**
 * How the verdict is asked for: a forced tool call, a strict JSON-schema response format, or plain
 * JSON in the prompt.
 */
export type StructuredMode = "tools" | "json_schema" | "json";

export type ReplyReading =
  { ok: true; verdict: Verdict; raw: unknown } | { ok: false; problem: string; raw: unknown };

type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type Param = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * The verdict's JSON Schema in the form strict mode accepts: every object
 * closed (additionalProperties: false) and every property required, an
 * optional one as "its type or null" (the nulls are dropped again on reading).
 */
export function strictSchemaFor(kind: VerdictKind): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(verdictSchemaFor(kind));
  return strictify(schema) as Record<string, unknown>;
}

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = strictify(value);
  const properties = out.properties as Record<string, unknown> | undefined;
  if (out.type === "object" && properties) {
    const required = new Set((out.required as string[] | undefined) ?? []);
    for (const key of Object.keys(properties))
      if (!required.has(key)) properties[key] = { anyOf: [properties[key], { type: "null" }] };
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** Strict mode sends an absent optional field as null; the verdict schemas say absent. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, dropNulls(v)]),
  );
}

function parseVerdict(text: string, schema: z.ZodType<Verdict>, what: string): ReplyReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `The ${what} is not valid JSON (${(error as Error).message}).`,
      raw: text,
    };
  }
  const parsed = schema.safeParse(dropNulls(json));
  if (parsed.success) return { ok: true, verdict: parsed.data, raw: json };
  return {
    ok: false,
    problem: `The ${what} does not match the verdict schema:\n${z.prettifyError(parsed.error)}`,
    raw: json,
  };
}

export function readReply(input: {
  completion: OpenAI.Chat.Completions.ChatCompletion;
  mode: StructuredMode;
  schema: z.ZodType<Verdict>;
}): ReplyReading {
  const { completion, mode, schema } = input;
  const choice = completion.choices?.[0];
  if (!choice?.message) return { ok: false, problem: "The reply has no message.", raw: completion };
  const cutOff =
    choice.finish_reason === "length"
      ? " The reply was cut off at max_tokens: keep the reasoning short."
      : "";
  const message = choice.message;
  if (mode === "tools") {
    const call = message.tool_calls?.find(
      (c) => c.type === "function" && c.function.name === VERDICT_TOOL_NAME,
    );
    if (call && call.type === "function")
      return parseVerdict(call.function.arguments, schema, `${VERDICT_TOOL_NAME} arguments`);
    const other = message.tool_calls?.[0];
    const named = other?.type === "function" ? other.function.name : undefined;
    const problem = named
      ? `The reply called ${named}, not ${VERDICT_TOOL_NAME}.`
      : `The reply did not call the ${VERDICT_TOOL_NAME} tool.`;
    return { ok: false, problem: `${problem}${cutOff}`, raw: message.content ?? "" };
  }
  const text = message.content ?? "";
  if (text.trim() === "")
    return {
      ok: false,
      problem: `The reply is empty: it must be one JSON object.${cutOff}`,
      raw: text,
    };
  const reading = parseVerdict(text.trim(), schema, "reply");
  return reading.ok || cutOff === ""
    ? reading
    : { ...reading, problem: `${reading.problem}${cutOff}` };
}

/** The reply as it was, then what was wrong: a tool result per tool call, else a user turn. */
export function repairMessages(input: {
  message: Message;
  mode: StructuredMode;
  problem: string;
}): Param[] {
  const { message, mode, problem } = input;
  const ask =
    mode === "tools"
      ? `Call the ${VERDICT_TOOL_NAME} tool again with a corrected verdict: reasoning first, then the score.`
      : "Reply again with only the corrected verdict as one JSON object: reasoning first, then the score.";
  const calls = mode === "tools" ? (message.tool_calls ?? []) : [];
  const echoed: Param = {
    role: "assistant",
    content: message.content ?? "",
    ...(calls.length ? { tool_calls: calls } : {}),
  };
  if (calls.length > 0)
    return [
      echoed,
      ...calls.map((c): Param => ({
        role: "tool",
        tool_call_id: c.id,
        content: `${problem}\n${ask}`,
      })),
    ];
  return [echoed, { role: "user", content: `${problem}\n${ask}` }];
}
