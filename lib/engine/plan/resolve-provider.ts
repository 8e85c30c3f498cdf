import { modelFamilyOf } from "../../config/model-family";
import {
  BUILTIN_PROVIDERS,
  splitModelName,
  type ProviderConfig,
  type ProviderType,
} from "../../config/provider-schema";

// Which provider serves a model (issue 11), decided without reading the
// environment: the caller says which providers have their key. A prefix names
// the provider; without one the model's family decides (claude-* → anthropic,
// gpt-* and the o-series → openai), then which built-in provider has a key.

export interface ResolvedModel {
  /** The provider's name: anthropic, openai, or one declared under providers:. */
  provider: string;
  type: ProviderType;
  /** Declared under providers: (a local server or a proxy: unpriced), rather than a built-in vendor API. */
  declared: boolean;
  /** The model id sent to the provider (the prefix removed). */
  model: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** Why this model cannot be graded now (its provider's key is not set), else undefined. */
  unavailable?: string;
}

/** Whether `--batch` sends this model's judge calls through Message Batches: the Anthropic API's own models (a declared provider, even of that type, may not serve batches; other vendors are called directly). */
export function goesThroughBatches(resolved: Pick<ResolvedModel, "type" | "declared">): boolean {
  return resolved.type === "anthropic" && !resolved.declared;
}

export interface ProviderContext {
  /** The suite's providers: block. */
  declared?: Readonly<Record<string, ProviderConfig>>;
  /** Whether the environment variable holding a key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY, an api_key_env). */
  hasKey: (keyEnv: string) => boolean;
}

/** The key a built-in provider reads, for messages. */
export const BUILTIN_KEY_ENV: Readonly<Record<string, string>> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
};

export function resolveProvider(model: string, context: ProviderContext): ResolvedModel {
  const { prefix, name } = splitModelName(model);
  const providerName =
    prefix ??
    modelFamilyOf(model)?.provider ??
    (!context.hasKey(BUILTIN_KEY_ENV.anthropic!) && context.hasKey(BUILTIN_KEY_ENV.openai!)
      ? "openai"
      : "anthropic");
  // Own keys only: a prefix such as "constructor" must find nothing on Object.prototype.
  const declared =
    context.declared && Object.hasOwn(context.declared, providerName)
      ? context.declared[providerName]
      : undefined;
  const type =
    declared?.type ??
    (Object.hasOwn(BUILTIN_PROVIDERS, providerName) ? BUILTIN_PROVIDERS[providerName] : undefined);
  // The loader rejects unknown prefixes; a caller that skipped it gets the Anthropic default, deferred.
  if (type === undefined)
    return {
      provider: providerName,
      type: "anthropic",
      declared: false,
      model: name,
      unavailable: `unknown provider "${providerName}"`,
    };
  const keyEnv = declared ? declared.apiKeyEnv : BUILTIN_KEY_ENV[providerName];
  // A declared provider without api_key_env needs no key (a local server).
  const unavailable =
    keyEnv === undefined || context.hasKey(keyEnv)
      ? undefined
      : providerName === "anthropic" && !declared
        ? "no judge key: set ANTHROPIC_API_KEY to grade for real"
        : `no key for provider "${providerName}": set ${keyEnv} to grade ${model} for real`;
  return {
    provider: providerName,
    type,
    declared: declared !== undefined,
    model: name,
    ...(declared?.baseUrl !== undefined ? { baseUrl: declared.baseUrl } : {}),
    ...(keyEnv !== undefined ? { apiKeyEnv: keyEnv } : {}),
    ...(unavailable !== undefined ? { unavailable } : {}),
  };
}

/**
 * A planner's model resolution for a run graded elsewhere (a queued run's workers, a dashboard
 * regrade): every model resolved to its provider as if its key were set, so that its cells count
 * the judge calls they will make; the worker that grades them resolves each model with its own
 * keys, and a cell whose key is missing there defers then.
 */
export function resolveAsIfKeyed(
  declared: ProviderContext["declared"],
): (model: string) => { provider: string } {
  return (model) => ({
    provider: resolveProvider(model, { ...(declared ? { declared } : {}), hasKey: () => true })
      .provider,
  });
}

/**
 * A planner's model resolution for a run whose graders' keys are known (the dashboard's Run and
 * Re-grade with…, graded by the server's workers): a model whose key `hasKey` lacks is unavailable,
 * so its cells defer with no judge call planned; with no `hasKey`, as if every key were set.
 */
export function resolveWithKeys(input: {
  declared: ProviderContext["declared"];
  hasKey?: (keyEnv: string) => boolean;
}): (model: string) => { provider: string; unavailable?: string } {
  const { declared, hasKey } = input;
  if (!hasKey) return resolveAsIfKeyed(declared);
  return (model) => resolveProvider(model, { ...(declared ? { declared } : {}), hasKey });
}
