import * as z from "zod";
import { LIMITS, atMost } from "./limits";

// The `providers:` block and the model-name syntax (issue 11). A model is
// written `claude-sonnet-4-6` (its provider resolved from the name, then from
// which key is set), `openai:gpt-4.1-mini`, or `local:qwen3-8b` for a provider
// declared here. The provider resolution itself is lib/engine/resolve-provider.ts.

/** A provider name: what may stand before the colon of a model. */
export const PROVIDER_NAME = /^[a-z][a-z0-9_-]*$/;
/** An environment variable name (api_key_env). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const PROVIDER_TYPES = ["anthropic", "openai"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const ProviderSchema = z
  .strictObject({
    type: z
      .enum(PROVIDER_TYPES, {
        error:
          "unknown provider type: valid types are anthropic and openai (any " +
          "OpenAI-compatible Chat Completions endpoint)",
      })
      .describe(
        "The wire protocol: anthropic (Messages API) or openai (Chat Completions: OpenAI, " +
          "vLLM, Ollama, llama.cpp's server, LiteLLM).",
      ),
    base_url: z
      .url({
        protocol: /^https?$/,
        error:
          "base_url must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8000/v1",
      })
      .optional()
      .describe(
        "The endpoint, e.g. http://127.0.0.1:8000/v1 for a local vLLM server. Default: the vendor's public API.",
      ),
    api_key_env: z
      .string()
      .regex(ENV_NAME, {
        error: "api_key_env must be the name of an environment variable, e.g. LOCAL_KEY",
      })
      .optional()
      .describe(
        "The environment variable holding this provider's key. Optional for local servers " +
          "that need none; when named and unset, the provider's models defer.",
      ),
  })
  .describe("A named model provider; its models are written name:model.");

export const ModelNameSchema = z
  .string()
  .min(1)
  .max(LIMITS.nameChars, atMost(LIMITS.nameChars, "at most {n} characters"))
  .regex(/^\S+$/, {
    error: "a model name has no spaces: write model, or provider:model (e.g. openai:gpt-4.1-mini)",
  })
  .describe(
    "A model: claude-sonnet-4-6 (provider resolved), or provider:model " +
      "(openai:gpt-4.1-mini, or a provider under providers:).",
  );

export const ProvidersSchema = z
  .record(
    z
      .string()
      .regex(PROVIDER_NAME, { error: "a provider name is lower-case letters, digits, - and _" }),
    ProviderSchema,
  )
  .describe("Named model providers, used as the prefix of a model name (local:qwen3-8b).");

export type ProviderInput = z.output<typeof ProviderSchema>;

/** The providers every suite has without declaring them. A declared provider of the same name replaces one. */
export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderType>> = {
  anthropic: "anthropic",
  openai: "openai",
};

export interface ProviderConfig {
  type: ProviderType;
  baseUrl?: string;
  apiKeyEnv?: string;
}

/**
 * `openai:gpt-4.1-mini` → { prefix: "openai", name: "gpt-4.1-mini" }; a model
 * without a provider-like prefix (`claude-sonnet-4-6`, a Bedrock id with dots
 * before its colon) → { name }. Ollama tags keep their colon: `local:qwen3:8b`.
 */
export function splitModelName(model: string): { prefix?: string; name: string } {
  const colon = model.indexOf(":");
  if (colon <= 0) return { name: model };
  const prefix = model.slice(0, colon);
  return PROVIDER_NAME.test(prefix) ? { prefix, name: model.slice(colon + 1) } : { name: model };
}
