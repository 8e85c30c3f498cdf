import { splitModelName } from "./provider-schema";

// Which family a model belongs to, from its name alone (issue 11): the one
// table that both provider resolution (lib/engine/resolve-provider.ts: a
// family with a vendor decides the provider of an unprefixed name) and the
// same-family warning (a judge grading the live run of its own family's
// agent; judges favour their own outputs) read. Names are compared after the
// provider prefix and any organisation path ("Qwen/Qwen3-8B") are taken off.

export interface ModelFamily {
  /** A short id: claude, gpt, qwen... */
  id: string;
  /** For messages: "Claude", "OpenAI GPT"... */
  label: string;
  /** The built-in provider whose API serves the family, when there is one. */
  provider?: "anthropic" | "openai";
}

const FAMILIES: readonly (ModelFamily & { pattern: RegExp })[] = [
  { id: "claude", label: "Claude", provider: "anthropic", pattern: /^claude-/ },
  { id: "gpt", label: "OpenAI GPT", provider: "openai", pattern: /^(gpt-|chatgpt-|o1|o3|o4)/ },
  { id: "qwen", label: "Qwen", pattern: /^qwen/ },
  { id: "llama", label: "Llama", pattern: /^(meta-)?llama/ },
  {
    id: "mistral",
    label: "Mistral",
    pattern: /^(mistral|mixtral|ministral|codestral|magistral|devstral)/,
  },
  { id: "gemini", label: "Gemini", pattern: /^(gemini|gemma)/ },
  { id: "deepseek", label: "DeepSeek", pattern: /^deepseek/ },
];

/**
 * The family of a model as written (`claude-haiku-4-5`, `openai:gpt-4.1-mini`,
 * `local:Qwen/Qwen3-8B`), or undefined when the name says none.
 */
export function modelFamilyOf(model: string): ModelFamily | undefined {
  const name = splitModelName(model).name.toLowerCase();
  const base = name.slice(name.lastIndexOf("/") + 1);
  const found = FAMILIES.find((f) => f.pattern.test(base));
  if (!found) return undefined;
  const { pattern: _pattern, ...family } = found;
  return family;
}
