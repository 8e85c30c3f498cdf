import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatIssue } from "../config/load-suite";
import type { ProviderConfig } from "../config/provider-schema";
import { loadServerProviders } from "../config/server-providers";
import { BUILTIN_KEY_ENV } from "../engine/plan/resolve-provider";
import type { Settings } from "../env/read-env";
import { readProviderKeys } from "../env/read-provider-keys";
import { createProviderSetup, type ProviderSetup } from "./provider-setup";

// The dashboard's providers: the file named by RUBRIC_STUDIO_PROVIDERS (read
// from the environment once, in lib/env, and passed in here) plus the
// built-in anthropic and openai. Suites run from the browser resolve their
// models against these only (lib/config/server-providers.ts checks their own
// providers: block), so their keys are read from the variables this file
// names and sent to the addresses it names. The queue workers
// (lib/cli/providers-for-run.ts) and the editor's validate route read it here.

export interface ServerProviders {
  /** The file they were read from; undefined without RUBRIC_STUDIO_PROVIDERS (only the built-in providers). */
  file?: string;
  providers: Record<string, ProviderConfig>;
}

export type ServerProvidersRead =
  { ok: true; value: ServerProviders } | { ok: false; message: string };

export async function readServerProviders(
  settings: Pick<Settings, "providersFile">,
  cwd = process.cwd(),
): Promise<ServerProvidersRead> {
  if (settings.providersFile === undefined) return { ok: true, value: { providers: {} } };
  const file = path.resolve(cwd, settings.providersFile);
  let text: string;
  try {
    // Named at run time, never part of the build (see lib/live/server-allow-list.ts).
    text = await readFile(/* turbopackIgnore: true */ file, "utf8");
  } catch (error) {
    return {
      ok: false,
      message: `RUBRIC_STUDIO_PROVIDERS: cannot read ${file}: ${(error as Error).message}`,
    };
  }
  const loaded = loadServerProviders({ text, file });
  if (!loaded.ok)
    return {
      ok: false,
      message: `the providers file does not load:\n${loaded.issues.map(formatIssue).join("\n")}`,
    };
  return { ok: true, value: { file, providers: loaded.value } };
}

/**
 * The names of the key variables that are set, among those the server's
 * providers read: what the plan panel needs to say which models would defer,
 * without any key leaving this process.
 */
export function serverKeyNames(input: {
  settings: Settings;
  providers: Readonly<Record<string, ProviderConfig>>;
  env?: Record<string, string | undefined>;
}): string[] {
  const declared = Object.values(input.providers).flatMap((p) =>
    p.apiKeyEnv === undefined ? [] : [p.apiKeyEnv],
  );
  return [
    ...Object.keys(readProviderKeys(declared, input.env)),
    ...(input.settings.anthropicApiKey !== undefined ? [BUILTIN_KEY_ENV.anthropic!] : []),
    ...(input.settings.openaiApiKey !== undefined ? [BUILTIN_KEY_ENV.openai!] : []),
  ];
}

/**
 * The judge, prices and provider resolution of anything graded for the
 * browser (a dashboard run, Check anchors, Run calibration): the server's
 * providers only. A suite's own providers: block is replaced, not merged: its
 * api_key_env and base_url are never used, so a browser cannot make the
 * server read another variable or send a key elsewhere; a model of a provider
 * the server does not define defers.
 */
export function serverProviderSetup(input: {
  settings: Settings;
  env: Record<string, string | undefined>;
  providers: Readonly<Record<string, ProviderConfig>>;
}): ProviderSetup {
  return createProviderSetup({
    suite: { file: "", servers: {}, evals: [], providers: { ...input.providers } },
    settings: input.settings,
    env: input.env,
  });
}

/**
 * The dashboard's providers as plain data for a suite task: their configuration and the names of
 * the key variables set, no key value.
 */
export interface DashboardProviders {
  providers: Record<string, ProviderConfig>;
  keysSet: string[];
}

/**
 * Whether Check anchors and Run calibration can judge anything here: some provider's key is set, or
 * a provider needs none (a local server).
 */
export function serverCanJudge(value: DashboardProviders): boolean {
  return (
    value.keysSet.length > 0 ||
    Object.values(value.providers).some((p) => p.apiKeyEnv === undefined)
  );
}

let cached: Promise<ServerProvidersRead> | undefined;

/** The server's providers for the editor's routes, read once per process (the server reads them at start too). */
export async function dashboardProviders(
  settings: Settings,
): Promise<{ ok: true; value: DashboardProviders } | { ok: false; message: string }> {
  cached ??= readServerProviders(settings);
  const read = await cached;
  if (!read.ok) return read;
  return {
    ok: true,
    value: {
      providers: read.value.providers,
      keysSet: serverKeyNames({ settings, providers: read.value.providers }),
    },
  };
}
