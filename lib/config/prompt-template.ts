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

function fieldLength(item: DatasetItem, name: string): number {
  if (name === "context")
    return (item.context ?? []).reduce((n, entry, i) => n + entry.length + (i > 0 ? 2 : 0), 0);
  return fieldOf(item, name).length;
}

/**
 * The length of renderPromptTemplate(template, item) for each item, by
 * arithmetic: a template that repeats {{expected_output}} can multiply an
 * item's text past what a process can hold, so its size is known before it
 * is built. The template is scanned once, each item in constant time.
 */
export function renderedPromptLengths(template: string): (item: DatasetItem) => number {
  const counts = new Map<string, number>();
  let fixed = template.length;
  for (const match of template.matchAll(PLACEHOLDER)) {
    counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
    fixed -= match[0].length;
  }
  return (item) =>
    [...counts].reduce((n, [name, count]) => n + count * fieldLength(item, name), fixed);
}

/**
 * The prompt one dataset item is graded (or run) with: the template filled
 * from the item, or, without a template, the item's own input.
 */
export function renderPromptTemplate(
  template: string | undefined,
  item: DatasetItem,
): string | undefined {
  if (template === undefined) return item.input;
  return template.replace(PLACEHOLDER, (_match, name: string) => fieldOf(item, name));
}
