// A small MCP server for the "Live runs" example in the README: an in-memory
// calendar with two tools. Run by examples/live-agent.yaml over stdio:
//   npx rubric-studio eval --config examples/live-agent.yaml
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const events = [{ id: "evt_001", title: "Team standup", day: "Monday", time: "09:30" }];

const server = new McpServer({ name: "example-calendar", version: "1.0.0" });

server.registerTool(
  "list_events",
  {
    description: "List the calendar's events, optionally for one day.",
    inputSchema: { day: z.string().optional().describe("e.g. Tuesday") },
  },
  async ({ day }) => {
    const found = events.filter((e) => !day || e.day.toLowerCase() === day.toLowerCase());
    return {
      content: [
        {
          type: "text",
          text: found.length
            ? found.map((e) => `${e.id}: ${e.title}, ${e.day} ${e.time}`).join("\n")
            : "no events",
        },
      ],
    };
  },
);

server.registerTool(
  "create_event",
  {
    description: "Create an event. Returns its id.",
    inputSchema: {
      title: z.string(),
      day: z.string().describe("Day of the week"),
      time: z.string().describe("24-hour time, e.g. 14:00"),
    },
  },
  async ({ title, day, time }) => {
    const clash = events.find((e) => e.day.toLowerCase() === day.toLowerCase() && e.time === time);
    if (clash)
      return {
        content: [
          { type: "text", text: `${day} ${time} is taken by ${clash.id} (${clash.title})` },
        ],
        isError: true,
      };
    const event = { id: `evt_${String(events.length + 1).padStart(3, "0")}`, title, day, time };
    events.push(event);
    return { content: [{ type: "text", text: `Created ${event.id}: ${title}, ${day} ${time}` }] };
  },
);

await server.connect(new StdioServerTransport());
// stdout is the protocol; anything for people goes to stderr (kept for the report).
process.stderr.write("example-calendar: ready\n");
