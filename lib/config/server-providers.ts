import * as z from "zod";
import { BUILTIN_PROVIDERS, ProvidersSchema, type ProviderConfig } from "./provider-schema";
import type { ConfigIssue, SuiteConfig } from "./types";
import { parseYaml, type DataPath } from "./yaml-locator";
import { zodIssuesToConfigIssues } from "./zod-issues";

// The dashboard's providers (issue 11): the server decides which model
// providers a suite written in the browser may use, because a provider names
// the environment variable its key is read from and the address that key is
// sent to. They come from the file named by RUBRIC_STUDIO_PROVIDERS, shaped
// like a suite's own `providers:` block, so an entry can be copied either way:
//
//   providers:
//     local: { type: openai, base_url: "http://127.0.0.1:8000/v1", api_key_env: LOCAL_KEY }
//
// plus the built-in anthropic and openai, whose keys and endpoints are the
// server's ANTHROPIC_* / OPENAI_* variables. A dashboard suite may declare a
// provider only as the server defines it (checkServerProviders). Pure, like
// the rest of lib/config: the caller reads the file.

export const ServerProvidersSchema = z
  .strictObject({ providers: ProvidersSchema })
  .describe(
    "The model providers suites run from the dashboard may use, by name, each with exactly " +
      "the type, base_url and api_key_env it must have.",
  );

export type ServerProvidersResult =
  { ok: true; value: Record<string, ProviderConfig> } | { ok: false; issues: ConfigIssue[] };

export function toProviderConfig(p: {
  type: ProviderConfig["type"];
  base_url?: string | undefined;
  api_key_env?: string | undefined;
}): ProviderConfig {
  return {
    type: p.type,
    ...(p.base_url !== undefined ? { baseUrl: p.base_url } : {}),
    ...(p.api_key_env !== undefined ? { apiKeyEnv: p.api_key_env } : {}),
  };
}

export function loadServerProviders(input: { text: string; file: string }): ServerProvidersResult {
  const { text, file } = input;
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const { data, locator } = parsed;
  const result = ServerProvidersSchema.safeParse(data ?? {});
  if (!result.success)
    return {
      ok: false,
      issues: zodIssuesToConfigIssues({
        error: result.error,
        schema: ServerProvidersSchema,
        data,
        locator,
        file,
      }),
    };
  return {
    ok: true,
    value: Object.fromEntries(
      Object.entries(result.data.providers).map(([name, p]) => [name, toProviderConfig(p)]),
    ),
  };
}

const FIELDS = [
  { key: "type", field: "type" },
  { key: "baseUrl", field: "base_url" },
  { key: "apiKeyEnv", field: "api_key_env" },
] as const;

/**
 * A suite run from the dashboard: every provider its `providers:` block
 * declares must be one the server defines, with the same type, base_url and
 * api_key_env; anything else is an error at the entry or the field, so that a
 * browser cannot make the server read another of its variables
 * (`api_key_env: DATABASE_URL`) or send a key to another address.
 */
export function checkServerProviders(input: {
  text: string;
  suite: SuiteConfig;
  server: Readonly<Record<string, ProviderConfig>>;
}): ConfigIssue[] {
  const { suite, server } = input;
  const declared = Object.entries(suite.providers ?? {});
  if (declared.length === 0) return [];
  const parsed = parseYaml(input.text, suite.file);
  const at = (path: DataPath) => (parsed.ok ? parsed.locator.locate(path) : { line: 1, column: 1 });
  const issue = (path: DataPath, message: string): ConfigIssue => ({
    file: suite.file,
    ...at(path),
    path,
    message,
    severity: "error",
  });
  const names = Object.keys(server);
  const list = [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...names])].join(", ");
  return declared.flatMap(([name, provider]) => {
    const allowed = Object.hasOwn(server, name) ? server[name] : undefined;
    if (!allowed) {
      return [
        issue(
          ["providers", name],
          `provider "${name}" is not defined on this server: a suite run from the dashboard may use only the server's providers (${list}), which its administrator lists in the file named by RUBRIC_STUDIO_PROVIDERS`,
        ),
      ];
    }
    return FIELDS.flatMap(({ key, field }) => {
      const wanted = provider[key];
      const known = allowed[key];
      if (wanted === known) return [];
      const path: DataPath =
        wanted === undefined ? ["providers", name] : ["providers", name, field];
      const must = known === undefined ? "must be left out" : `must be "${known}"`;
      const why =
        field === "api_key_env"
          ? "a suite cannot choose which of the server's environment variables is read as a key"
          : field === "base_url"
            ? "a suite cannot send the server's key to another address"
            : "a suite cannot change how the server calls it";
      return [
        issue(
          path,
          `provider "${name}": ${field} ${must}, as this server defines it (${why}); write the entry as the server does`,
        ),
      ];
    });
  });
}
