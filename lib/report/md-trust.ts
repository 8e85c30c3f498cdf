import type { Report } from "../engine/results/report";
import { escapeMarkdown, escapeMarkdownCell } from "./escape";
import { trustSections, type TrustTable } from "./trust-sections";

// Markdown for reviews, comparisons and judge agreement (trust-sections.ts).

function table(t: TrustTable): string[] {
  const row = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(" | ")} |`;
  return [
    ...(t.caption ? [`**${escapeMarkdown(t.caption)}**`, ""] : []),
    row(t.header),
    `| ${t.header.map(() => "---").join(" | ")} |`,
    ...t.rows.map(row),
    "",
  ];
}

export function trustMarkdown(report: Report): string[] {
  return trustSections(report).flatMap((section) => [
    `### ${escapeMarkdown(section.heading)}`,
    "",
    ...section.facts.map((fact) => `- ${escapeMarkdown(fact)}`),
    "",
    ...section.tables.flatMap(table),
    ...section.lists.flatMap((list) => [
      `**${escapeMarkdown(list.title)}**`,
      "",
      ...list.items.map((item) => `- ${escapeMarkdown(item)}`),
      "",
    ]),
  ]);
}
