// The keys of providers a suite declares (providers: { name: { api_key_env } }):
// their variable names come from the suite, so they are read on demand, here,
// and nowhere else (DESIGN.md, house rule 7). Only the names asked for are read.

export function readProviderKeys(
  names: readonly string[],
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of new Set(names)) {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    // An empty variable means unset, as in readEnv.
    if (value !== undefined && value !== "") keys[name] = value;
  }
  return keys;
}
