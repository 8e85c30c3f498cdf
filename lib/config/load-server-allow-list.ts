import * as z from "zod";
import { ServerSchema } from "./live-schema";
import { resolveServer } from "./resolve-suite";
import type { ConfigIssue, ServerConfig } from "./types";
import { parseYaml } from "./yaml-locator";
import { zodIssuesToConfigIssues } from "./zod-issues";

// The dashboard's MCP allow-list: the servers a suite run from the browser may
// start. The file has the shape of a suite's own `servers:` block, so an
// entry can be copied from a suite as it is:
//
//   servers:
//     calendar:
//       command: node
//       args: [mcp-server.mjs]
//
// Pure, like the rest of lib/config: the caller reads the file.

export const ServerAllowListSchema = z
  .object({
    servers: z
      .record(z.string(), ServerSchema)
      .describe(
        "The MCP servers suites run from the dashboard may start, by name, each with " +
          "exactly the command or URL it must have.",
      ),
  })
  .strict();

export type ServerAllowListResult =
  { ok: true; value: Record<string, ServerConfig> } | { ok: false; issues: ConfigIssue[] };

export function loadServerAllowList(input: { text: string; file: string }): ServerAllowListResult {
  const { text, file } = input;
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const { data, locator } = parsed;
  const result = ServerAllowListSchema.safeParse(data ?? {});
  if (!result.success) {
    return {
      ok: false,
      issues: zodIssuesToConfigIssues({
        error: result.error,
        schema: ServerAllowListSchema,
        data,
        locator,
        file,
      }),
    };
  }
  return {
    ok: true,
    value: Object.fromEntries(
      Object.entries(result.data.servers).map(([name, server]) => [name, resolveServer(server)]),
    ),
  };
}
