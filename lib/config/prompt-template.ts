import type { DatasetItem } from "./dataset-schema";

// The prompt of an eval that takes its candidates from a dataset is a
// template: {{input}}, {{context}}, {{expected_output}} and {{id}} are filled
// from each item. Nothing else in the language is templated, so a placeholder
// anywhere else (or an unknown one) is an error the loader reports.

export const TEMPLATE_FIELDS = ["input", "context", "expected_output", "id"] as const;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/** Every placeholder name in a template, in order of appearance, without repeats. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

function fieldOf(item: DatasetItem, name: string): string {
  if (name === "input") return item.input ?? "";
  if (name === "context") return (item.context ?? []).join("\n\n");
  if (name === "expected_output") return item.expectedOutput ?? "";
  if (name === "id") return item.id;
  // The loader rejects unknown placeholders, so this is a programmer error.
  throw new Error(`renderPromptTemplate: unknown placeholder {{${name}}}`);
}

/**
 * The prompt one dataset item is graded (or run) with: the template filled
 * from the item, or, without a template, the item's own input.
 */
export function renderPromptTemplate(template: string | undefined, item: DatasetItem): string | undefined {
  if (template === undefined) return item.input;
  return template.replace(PLACEHOLDER, (_match, name: string) => fieldOf(item, name));
}
