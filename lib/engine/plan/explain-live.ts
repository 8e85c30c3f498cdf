import type { ServerConfig } from "../../config/types";
import type { Candidate } from "../grade/build-prompt";
import type { PlannedCell } from "../grade/planned-cell";
import { costOf, estimateTokens, type ModelPrice } from "../cost/cost";
import { EXPECTED_OUTPUT_TOKENS } from "./estimate-requests";

// What `eval --explain` says about a live cell: its server, the agent's model
// and call budget. The transcript does not exist before the run, so the judge
// calls are projected on a stand-in of an assumed size. A generated candidate
// (no server) is one request, whose cost is projected like a judge call's.

/** The transcript size assumed when projecting the judge calls of a live run. */
export const ASSUMED_TRANSCRIPT_CHARS = 4000;

type Live = NonNullable<PlannedCell["live"]>;

export function describeServer(server: ServerConfig): string {
  if (server.kind === "http") return `Streamable HTTP ${server.url}`;
  return `stdio: ${[server.command, ...server.args].join(" ")}`;
}

export function liveCandidateLine(live: Live): string {
  if (live.server === undefined)
    return `generated: ${live.agent.model} answers the prompt (${live.prompt.length} chars) with no tools`;
  return `live agent run against server ${JSON.stringify(live.serverName)} (${describeServer(live.server)})`;
}

export function liveAgentLine(live: Live): string {
  const a = live.agent;
  const model = `${a.model}${a.provider !== undefined ? ` (${a.provider})` : ""}`;
  if (live.server === undefined)
    return `${model}, one generation call, up to ${a.maxTokens} output tokens, ${a.temperature === undefined ? "no temperature sent (the Messages API refuses it: the model samples at its default)" : `temperature ${a.temperature}`}${a.system !== undefined ? ", with a system prompt" : ""}`;
  return `${model}, up to ${a.maxTurns} turn${a.maxTurns === 1 ? "" : "s"} (model calls), ${a.timeoutSeconds} s time limit; tool calls time out after ${live.server.toolTimeoutSeconds} s`;
}

/** A stand-in candidate of the assumed size, so that the projected requests have realistic lengths. */
export function assumedLiveCandidate(live: Live): Candidate {
  if (live.server === undefined)
    return {
      prompt: live.prompt,
      response: "x".repeat(Math.min(EXPECTED_OUTPUT_TOKENS, live.agent.maxTokens) * 4),
    };
  const filler = "x".repeat(Math.max(0, ASSUMED_TRANSCRIPT_CHARS - live.prompt.length));
  return { response: `User:\n${live.prompt}\n\n${filler}` };
}

/** The projected cost of a generated candidate's one request: its system prompt and prompt in, a judge call's expected output out. Null when the model is unpriced. */
export function generationUsd(live: Live, price: ModelPrice | undefined): number | null {
  if (!price) return null;
  return costOf(price, {
    input: estimateTokens(`${live.agent.system ?? ""}\n${live.prompt}`),
    output: Math.min(EXPECTED_OUTPUT_TOKENS, live.agent.maxTokens),
    cacheRead: 0,
    cacheWrite: 0,
  });
}
