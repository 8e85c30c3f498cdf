import type { ServerConfig } from "../../config/types";
import type { Candidate } from "../grade/build-prompt";
import type { PlannedCell } from "../grade/planned-cell";

// What `eval --explain` says about a live cell: its server, the agent's model
// and call budget. The transcript does not exist before the run, so the judge
// calls are projected on a stand-in of an assumed size.

/** The transcript size assumed when projecting the judge calls of a live run. */
export const ASSUMED_TRANSCRIPT_CHARS = 4000;

type Live = NonNullable<PlannedCell["live"]>;

export function describeServer(server: ServerConfig): string {
  if (server.kind === "http") return `Streamable HTTP ${server.url}`;
  return `stdio: ${[server.command, ...server.args].join(" ")}`;
}

export function liveCandidateLine(live: Live): string {
  return `live agent run against server ${JSON.stringify(live.serverName)} (${describeServer(live.server)})`;
}

export function liveAgentLine(live: Live): string {
  const a = live.agent;
  return `${a.model}${a.provider !== undefined ? ` (${a.provider})` : ""}, up to ${a.maxTurns} turn${a.maxTurns === 1 ? "" : "s"} (model calls), ${a.timeoutSeconds} s time limit; tool calls time out after ${live.server.toolTimeoutSeconds} s`;
}

/** A stand-in candidate of the assumed size, so that the projected requests have realistic lengths. */
export function assumedLiveCandidate(live: Live): Candidate {
  const filler = "x".repeat(Math.max(0, ASSUMED_TRANSCRIPT_CHARS - live.prompt.length));
  return { response: `User:\n${live.prompt}\n\n${filler}` };
}
