import type { Settings } from "./read-env";

// The values of the secrets a process holds from its settings: what must never
// be shown back, whatever a remote endpoint echoes (the engine's Redactor
// removes them by value). A declared provider's key comes from
// readProviderKeys, and is added by whoever reads it.

export function secretValues(settings: Settings): string[] {
  const values = [
    settings.anthropicApiKey,
    settings.openaiApiKey,
    settings.password,
    settings.apiToken,
    settings.sessionSecret,
    databasePassword(settings.databaseUrl),
  ];
  return values.filter((v): v is string => v !== undefined && v !== "");
}

/** The password inside a postgres:// URL (a real server's, or the embedded one's), if any. */
export function databasePassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}
