import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

// A small MCP server of our own with two tools, for the live-run tests. It
// runs over stdio (as its own process: MCP_TEST_SERVER_ARGS) or over
// Streamable HTTP on 127.0.0.1 (in the test's process: startMcpTestHttpServer).
// Knobs, all through the environment of the stdio process:
//   MCP_TEST_CRASH_TOOL=create_event  calling that tool writes to stderr and exits 3 (a server dying mid-run)
//   MCP_TEST_STARTED_FILE=path         written on start (proves whether a server was started at all)
//   MCP_TEST_FAIL_START=1              exits at once with a message on stderr (a server that cannot start)

export const MCP_TEST_SERVER_FILE = fileURLToPath(import.meta.url);
/**
 * `command: node` with these args runs this file as a stdio server, from any
 * folder: the tsx loader is named by its absolute URL, since --import
 * resolves a bare name against the server's cwd (a test's temporary folder).
 */
export const MCP_TEST_SERVER_ARGS = [
  "--import",
  pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
  MCP_TEST_SERVER_FILE,
];

export interface McpTestServerOptions {
  crashTool?: string;
}

export function createMcpTestServer(options: McpTestServerOptions = {}): McpServer {
  const server = new McpServer({ name: "rubric-studio-test-server", version: "1.0.0" });
  const crashIfAsked = (tool: string) => {
    if (options.crashTool !== tool) return;
    process.stderr.write(`fatal: the calendar backend crashed while running ${tool}\n`);
    process.exit(3);
  };

  server.registerTool(
    "get_weather",
    {
      description: "The current weather in a city, with an optional day-by-day forecast.",
      inputSchema: {
        city: z.string().describe("City name"),
        forecast_days: z
          .number()
          .int()
          .min(0)
          .max(1000)
          .optional()
          .describe("Days of forecast to add"),
        delay_ms: z
          .number()
          .int()
          .min(0)
          .max(60_000)
          .optional()
          .describe("Answer this much later (tests of timeouts)"),
      },
    },
    async ({ city, forecast_days, delay_ms }) => {
      crashIfAsked("get_weather");
      if (delay_ms) await new Promise((resolve) => setTimeout(resolve, delay_ms));
      const lines = [`${city}: 18C and clear (server pid ${process.pid})`];
      for (let day = 1; day <= (forecast_days ?? 0); day++)
        lines.push(`day ${day}: ${15 + (day % 7)}C, light wind from the west`);
      return { content: [{ type: "text", text: lines.join("\n") }] };
    },
  );

  server.registerTool(
    "create_event",
    {
      description: "Create a calendar event and return its id.",
      inputSchema: {
        title: z.string(),
        day: z.string(),
        time: z.string(),
        notes: z.string().optional(),
      },
    },
    async ({ title, day, time, notes }) => {
      crashIfAsked("create_event");
      if (day.toLowerCase() === "yesterday")
        return {
          content: [{ type: "text", text: "cannot create an event in the past" }],
          isError: true,
        };
      const echo = notes ? ` Notes: ${notes}` : "";
      return {
        content: [
          {
            type: "text",
            text: `Created event evt_042 "${title}" on ${day} at ${time} (server pid ${process.pid}).${echo}`,
          },
        ],
      };
    },
  );
  return server;
}

export interface McpTestHttpServer {
  url: string;
  /** Headers of every HTTP request received. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** The server over Streamable HTTP in this process, stateless: one server and transport per request. */
export async function startMcpTestHttpServer(
  options: McpTestServerOptions = {},
): Promise<McpTestHttpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    headers.push(req.headers);
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const server = createMcpTestServer(options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      void server
        .connect(transport)
        .then(() =>
          transport.handleRequest(
            req,
            res,
            JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
          ),
        )
        .catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  if (process.env.MCP_TEST_FAIL_START) {
    process.stderr.write("error: cannot open the calendar database at /nonexistent/calendar.db\n");
    process.exit(1);
  }
  if (process.env.MCP_TEST_STARTED_FILE)
    writeFileSync(process.env.MCP_TEST_STARTED_FILE, String(process.pid));
  const server = createMcpTestServer({
    ...(process.env.MCP_TEST_CRASH_TOOL ? { crashTool: process.env.MCP_TEST_CRASH_TOOL } : {}),
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`mcp-test-server: ready on stdio (pid ${process.pid})\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
