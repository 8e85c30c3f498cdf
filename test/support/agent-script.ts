import { VERDICT_TOOL_NAME } from "../../lib/engine/ports/verdict";
import type { FakeReply, FakeRequest, FakeRespond } from "./fake-messages-api";

// Scripting the Messages API stand-in for live runs: one stand-in answers both
// the agent's turns (requests that offer the MCP server's tools) and the
// judge's calls (requests that force the verdict tool).

export function isJudgeRequest(request: FakeRequest): boolean {
  return request.toolName === VERDICT_TOOL_NAME;
}

type Message = { role?: unknown; content?: unknown };

function messagesOf(request: FakeRequest): Message[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Message[]) : [];
}

/** The prompt an agent run started from: the first user turn's text. */
export function agentPrompt(request: FakeRequest): string {
  const first = messagesOf(request)[0]?.content;
  if (typeof first === "string") return first;
  if (Array.isArray(first))
    return (first as { text?: unknown }[])
      .map((b) => (typeof b.text === "string" ? b.text : ""))
      .join("");
  return "";
}

/** 0 for the first model call of an agent run, 1 for the call after the first tool results, ... */
export function agentTurn(request: FakeRequest): number {
  return messagesOf(request).filter((m) => m.role === "assistant").length;
}

/** The names of the tools an agent request offered. */
export function offeredTools(request: FakeRequest): string[] {
  return Array.isArray(request.body.tools)
    ? (request.body.tools as { name: string }[]).map((t) => t.name)
    : [];
}

/** What a judge request grades: the text inside <candidate_response> (for a live run, the transcript). */
export function judgedCandidate(request: FakeRequest): string {
  return /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.user)?.[1] ?? "";
}

export type AgentScript = (request: FakeRequest, turn: number) => FakeReply;
export type JudgeScript = (request: FakeRequest, candidate: string) => FakeReply;

/** Agent turns from `agent`, judge calls from `judge` (default: a passing verdict). */
export function scriptAgents(input: { agent: AgentScript; judge?: JudgeScript }): FakeRespond {
  const judge: JudgeScript =
    input.judge ?? (() => ({ verdict: { reasoning: "the run meets the criterion", score: 1 } }));
  return (request) =>
    isJudgeRequest(request)
      ? judge(request, judgedCandidate(request))
      : input.agent(request, agentTurn(request));
}

/** The common agent: call one tool on the first turn, then answer with `reply`. */
export function callThenAnswer(call: { name: string; input: unknown }, reply: string): AgentScript {
  return (_request, turn) => (turn === 0 ? { toolCalls: [call] } : { text: reply });
}
