import type Anthropic from "@anthropic-ai/sdk";
import * as z from "zod";
import { VERDICT_TOOL_NAME, type Verdict } from "../engine/ports/verdict";

// Reading a verdict out of a Messages API reply, and the turns that ask the
// judge to correct a reply that is not one (DESIGN.md house rule 4: a reply
// that does not parse never becomes a score).

export type VerdictReading =
  { ok: true; verdict: Verdict; raw: unknown } | { ok: false; problem: string; raw: unknown };

type VerdictSchema = z.ZodType<Verdict>;

export function readVerdict(message: Anthropic.Message, schema: VerdictSchema): VerdictReading {
  let otherTool: string | undefined;
  for (const block of message.content) {
    if (block.type !== "tool_use") continue;
    if (block.name !== VERDICT_TOOL_NAME) {
      otherTool ??= block.name;
      continue;
    }
    const parsed = schema.safeParse(block.input);
    if (parsed.success) return { ok: true, verdict: parsed.data, raw: block.input };
    return {
      ok: false,
      problem: `The ${VERDICT_TOOL_NAME} input does not match its schema:\n${z.prettifyError(parsed.error)}`,
      raw: block.input,
    };
  }
  const text = replyText(message);
  const cutOff =
    message.stop_reason === "max_tokens"
      ? " The reply was cut off at max_tokens: keep the reasoning short."
      : "";
  const problem =
    otherTool === undefined
      ? `The reply did not call the ${VERDICT_TOOL_NAME} tool.${cutOff}`
      : `The reply called ${otherTool}, not ${VERDICT_TOOL_NAME}.${cutOff}`;
  return { ok: false, problem, raw: text };
}

function replyText(message: Anthropic.Message): string {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  return text;
}

/**
 * The turns to append to the conversation for the one repair attempt: the
 * judge's reply as it was, then a user turn saying what was wrong. A tool call
 * is answered with an error tool_result (the API requires a result for every
 * tool_use in the next user turn); a text-only reply with a plain correction.
 */
export function repairTurns(message: Anthropic.Message, problem: string): Anthropic.MessageParam[] {
  const echoed: Anthropic.ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text" && block.text.length > 0)
      echoed.push({ type: "text", text: block.text });
    else if (block.type === "tool_use")
      echoed.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
  }
  const ask = `Call the ${VERDICT_TOOL_NAME} tool again with a corrected verdict: reasoning first, then the score.`;
  const results: Anthropic.ContentBlockParam[] = [];
  for (const block of echoed) {
    if (block.type === "tool_use") {
      results.push({
        type: "tool_result",
        tool_use_id: block.id,
        is_error: true,
        content: `${problem}\n${ask}`,
      });
    }
  }
  const correction: Anthropic.MessageParam = {
    role: "user",
    content: results.length > 0 ? results : [{ type: "text", text: `${problem}\n${ask}` }],
  };
  // An empty assistant turn is rejected by the API; two user turns in a row are merged by it.
  return echoed.length > 0 ? [{ role: "assistant", content: echoed }, correction] : [correction];
}
