import { VERDICT_TOOL_NAME } from "../../lib/engine/ports/verdict";
import type { FakeOpenAIReply, FakeOpenAIRequest } from "./fake-openai-api";

// Scripting the Chat Completions stand-in for live runs, as agent-script.ts
// does the Messages API one: one stand-in may answer both an agent's turns
// (requests offering the MCP server's tools) and a judge's calls (requests
// that ask for the verdict).

type Message = { role?: unknown; content?: unknown };

const messagesOf = (request: FakeOpenAIRequest): Message[] =>
  Array.isArray(request.body.messages) ? (request.body.messages as Message[]) : [];

export function isChatJudgeRequest(request: FakeOpenAIRequest): boolean {
  const tools = Array.isArray(request.body.tools)
    ? (request.body.tools as { function?: { name?: string } }[])
    : [];
  return (
    tools.some((t) => t.function?.name === VERDICT_TOOL_NAME) ||
    request.body.response_format !== undefined ||
    request.system.includes("JSON Schema")
  );
}

/** The prompt an agent run started from: the first user message. */
export function chatAgentPrompt(request: FakeOpenAIRequest): string {
  return String(messagesOf(request).find((m) => m.role === "user")?.content ?? "");
}

/** 0 for the first model call of an agent run, 1 for the call after the first tool results, ... */
export function chatAgentTurn(request: FakeOpenAIRequest): number {
  return messagesOf(request).filter((m) => m.role === "assistant").length;
}

/** What a judge request grades: the text inside <candidate_response> (for a live run, the transcript). */
export function chatJudgedCandidate(request: FakeOpenAIRequest): string {
  return /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.last)?.[1] ?? "";
}

export type ChatAgentScript = (request: FakeOpenAIRequest, turn: number) => FakeOpenAIReply;

/** Agent turns from `agent`, judge calls from `judge` (default: a passing verdict). */
export function scriptChatAgents(input: {
  agent: ChatAgentScript;
  judge?: (request: FakeOpenAIRequest, candidate: string) => FakeOpenAIReply;
}): (request: FakeOpenAIRequest) => FakeOpenAIReply {
  const judge =
    input.judge ?? (() => ({ verdict: { reasoning: "the run meets the criterion", score: 1 } }));
  return (request) =>
    isChatJudgeRequest(request)
      ? judge(request, chatJudgedCandidate(request))
      : input.agent(request, chatAgentTurn(request));
}

/** The common agent: call one tool on the first turn, then answer with `reply`. */
export function chatCallThenAnswer(
  call: { name: string; input: unknown },
  reply: string,
): ChatAgentScript {
  return (_request, turn) => (turn === 0 ? { toolCalls: [call] } : { content: reply });
}
