import type { IncomingHttpHeaders } from "node:http";

// The Messages API stand-in's request checks (fake-messages-api.ts): what the
// real API answers 400 (or 401) to.

/** The checks of the real API that a client of ours could plausibly fail. */
export function checkRequest(
  headers: IncomingHttpHeaders,
  body: Record<string, unknown>,
): { status: number; message: string } | undefined {
  if (!headers["x-api-key"] && !headers.authorization)
    return { status: 401, message: "x-api-key header is required" };
  if (!headers["anthropic-version"])
    return { status: 400, message: "anthropic-version: header is required" };
  if (typeof body.model !== "string") return { status: 400, message: "model: Field required" };
  // API version 2026-10-21 removed the sampling parameters; 2023-06-01 still takes them.
  if (headers["anthropic-version"] !== "2023-06-01") {
    for (const field of ["temperature", "top_p", "top_k"]) {
      if (field in body)
        return { status: 400, message: `${field}: Extra inputs are not permitted` };
    }
  }
  if (typeof body.max_tokens !== "number")
    return { status: 400, message: "max_tokens: Field required" };
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return { status: 400, message: "messages: Field required" };
  const messages = body.messages as Array<{ role?: unknown; content?: unknown }>;
  for (const [i, message] of messages.entries()) {
    if (message.role !== "user" && message.role !== "assistant")
      return { status: 400, message: `messages.${i}.role: Input should be 'user' or 'assistant'` };
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    // Every tool_use must be answered by a tool_result in the very next turn.
    const ids = (message.content as Array<{ type?: unknown; id?: unknown }>)
      .filter((b) => b.type === "tool_use")
      .map((b) => b.id);
    const next = messages[i + 1]?.content;
    const answered = new Set(
      Array.isArray(next)
        ? (next as Array<{ type?: unknown; tool_use_id?: unknown }>)
            .filter((b) => b.type === "tool_result")
            .map((b) => b.tool_use_id)
        : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return {
        status: 400,
        message: `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}`,
      };
    }
  }
  return undefined;
}
