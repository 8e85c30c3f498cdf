import type { LiveOutcome, LivePort, LiveRequest } from "../engine/ports/live-port";
import type { AgentDialect } from "./agent-dialect";
import type { AllowServer } from "./allow-servers";
import { createChatDialect, type ChatSender } from "./chat-dialect";
import { createMessagesDialect, type MessagesSender } from "./messages-dialect";
import { runAgent } from "./run-agent";
import { createServerPool } from "./server-pool";
import type { McpTool } from "./server-connection";

// The live port over MCP and the agent's model API: the adapter the CLI (and
// the queue workers) pass to runSuite as `deps.live`. Create one per run and
// close it when the run ends: that closes every server it started.

/** Where an agent model runs: its API, the sender (with lib/judge's retries) and the model id that API knows. */
export type AgentEndpoint =
  | { api: "messages"; messages: MessagesSender; model: string }
  | {
      api: "chat";
      chat: ChatSender;
      model: string;
      maxTokensField: "max_completion_tokens" | "max_tokens";
    };

export interface LiveRunnerOptions {
  /** Which API serves an agent model as written in the suite (`claude-haiku-4-5`, `local:qwen3-8b`). */
  endpointFor?: (model: string) => AgentEndpoint;
  /** Without endpointFor: every agent on the Messages API through this sender (lib/judge's createRetryingMessages). */
  messages?: MessagesSender;
  /** The suite file's folder: stdio servers' cwd resolves against it. */
  baseDir: string;
  /** Which servers may be started: allowAllServers from the CLI, allowListedServers(...) from the dashboard. */
  allowServer: AllowServer;
  /** Reported to servers as the client's version. */
  clientVersion: string;
  now?: () => number;
}

export interface LiveRunner extends LivePort {
  close(): Promise<void>;
}

function dialectOf(endpoint: AgentEndpoint, request: LiveRequest, tools: McpTool[]): AgentDialect {
  const common = { model: endpoint.model, agent: request.agent, prompt: request.prompt, tools };
  return endpoint.api === "chat"
    ? createChatDialect({ ...common, chat: endpoint.chat, maxTokensField: endpoint.maxTokensField })
    : createMessagesDialect({ ...common, messages: endpoint.messages });
}

export function createLiveRunner(options: LiveRunnerOptions): LiveRunner {
  const { messages } = options;
  const endpointFor =
    options.endpointFor ??
    (messages
      ? (model: string): AgentEndpoint => ({ api: "messages", messages, model })
      : undefined);
  if (!endpointFor) throw new Error("createLiveRunner needs endpointFor or messages");
  const pool = createServerPool({
    baseDir: options.baseDir,
    allowServer: options.allowServer,
    clientVersion: options.clientVersion,
  });
  const now = options.now ?? Date.now;
  return {
    async run(request: LiveRequest): Promise<LiveOutcome> {
      // A generated candidate: the model answers with no tools, so no server is started.
      if (request.server === undefined || request.serverName === undefined) {
        const dialect = dialectOf(endpointFor(request.agent.model), request, []);
        return runAgent({ request, dialect, now });
      }
      const acquired = await pool.acquire({ name: request.serverName, config: request.server });
      if (!acquired.ok) return { kind: "deferred", reason: acquired.reason };
      const dialect = dialectOf(
        endpointFor(request.agent.model),
        request,
        acquired.connection.tools,
      );
      return runAgent({ request, connection: acquired.connection, dialect, now });
    },
    close: () => pool.closeAll(),
  };
}
