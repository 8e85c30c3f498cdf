import type { Report } from "../engine/results/report";
import { oneLine } from "./escape";
import { displayWidth, padWidth } from "./display-width";
import { trustSections, type TrustSection, type TrustTable } from "./trust-sections";

// The terminal's view of reviews, comparisons, judge agreement and flip rates:
// the same facts as md and html (trust-sections.ts), shaped to stay short. A
// review's findings are grouped by severity, a comparison lists only the pairs
// the judge flipped on, and the agreement and flip-rate tables are aligned.

export type Paint = (code: string, text: string) => string;

const TONE_COLOR = { good: "32", warn: "33", bad: "31" } as const;
const SEVERITY_ORDER = ["critical", "high", "medium", "low", "info"];
const SEVERITY_COLOR: Record<string, string> = {
  critical: "31",
  high: "31",
  medium: "33",
  low: "2",
  info: "2",
};
const PAD = "  ";

/** Reads a cell by its column heading, so that the shared tables can gain columns without breaking this. */
function reader(table: TrustTable): (row: string[], name: string) => string {
  return (row, name) => {
    const index = table.header.indexOf(name);
    if (index < 0) throw new Error(`pretty: the ${table.id} table has no "${name}" column`);
    return oneLine(row[index] ?? "");
  };
}

const NOT_AVAILABLE = /^n\/a \((.*)\)$/;

/** Aligned columns; a statistic that could not be computed reads "n/a" in its cell, with why once below the table. */
function aligned(table: TrustTable, paint: Paint): string[] {
  const notes: string[] = [];
  const shorten = (cell: string) => {
    const why = NOT_AVAILABLE.exec(cell)?.[1];
    if (why === undefined) return cell;
    if (!notes.includes(why)) notes.push(why);
    return "n/a";
  };
  const rows = [
    table.header,
    ...table.rows.map((row) => row.map((cell) => shorten(oneLine(cell)))),
  ].map((row) => row.map(oneLine));
  const widths = table.header.map((_, i) => Math.max(...rows.map((row) => displayWidth(row[i]!))));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : padWidth(cell, widths[i]!)))
      .join("  ")
      .trimEnd();
  return [
    paint("2", `${PAD}${line(rows[0]!)}`),
    ...rows.slice(1).map((row) => `${PAD}${line(row)}`),
    ...notes.map((why) => paint("2", `${PAD}n/a: ${why}`)),
  ];
}

function findings(table: TrustTable, paint: Paint): string[] {
  const get = reader(table);
  const rank = (s: string) =>
    SEVERITY_ORDER.indexOf(s) < 0 ? SEVERITY_ORDER.length : SEVERITY_ORDER.indexOf(s);
  // A stable sort: within a severity, the review's own order.
  const rows = [...table.rows].sort((a, b) => rank(get(a, "Severity")) - rank(get(b, "Severity")));
  const width = Math.max(...rows.map((row) => get(row, "Severity").length));
  return [
    `${PAD}findings by severity:`,
    ...rows.map((row) => {
      const severity = get(row, "Severity");
      const fix = get(row, "Recommendation");
      return `${PAD}  ${paint(SEVERITY_COLOR[severity] ?? "", severity.toUpperCase().padEnd(width))}  ${get(row, "Id")} (${get(row, "Category")}): ${get(row, "Title")}${fix ? paint("2", ` → ${fix}`) : ""}`;
    }),
  ];
}

function flaggedPairs(table: TrustTable, paint: Paint): string[] {
  const get = reader(table);
  const flagged = table.rows.filter((row) => get(row, "Flag") !== "");
  if (flagged.length === 0) return [];
  return [
    `${PAD}${paint("33", `pairs the judge flipped on (${flagged.length} of ${table.rows.length}):`)}`,
    ...flagged.map(
      (row) =>
        `${PAD}  pair ${get(row, "Pair")} · ${get(row, "Judge")}: A first → ${get(row, "A first")}, B first → ${get(row, "B first (mapped)")} (mapped); counted ${get(row, "Winner")}; ${get(row, "Flag")}`,
    ),
  ];
}

function compactTable(table: TrustTable, paint: Paint): string[] {
  const get = reader(table);
  switch (table.id) {
    case "categories":
      return [
        `${PAD}categories: ${table.rows.map((row) => `${get(row, "Category")} ${get(row, "Score")}`).join(" · ")}`,
      ];
    case "findings":
      return findings(table, paint);
    case "disagreements":
      return table.rows.map(
        (row) =>
          `${PAD}${paint("33", "judges disagree on")} ${get(row, "Category")}: ${get(row, "Scores")}`,
      );
    case "pairs":
      return flaggedPairs(table, paint);
    case "criteria":
      return [
        `${PAD}per criterion:`,
        ...table.rows.map(
          (row) =>
            `${PAD}  ${get(row, "Criterion")}: ${get(row, "Winner")} (margin ${get(row, "Margin")}; A ${get(row, "A wins")}, B ${get(row, "B wins")}, ties ${get(row, "Ties")})`,
        ),
      ];
    case "agreement":
    case "flips":
    case "calibration":
    case "calibration-items":
    case "confusion":
      return aligned(table, paint);
  }
}

function sectionLines(section: TrustSection, paint: Paint): string[] {
  const heading = paint(
    section.tone ? `1;${TONE_COLOR[section.tone]}` : "1",
    oneLine(section.heading),
  );
  return [
    heading,
    ...section.facts.filter((fact) => fact.trim() !== "").map((fact) => `${PAD}${oneLine(fact)}`),
    ...section.tables.flatMap((table) => compactTable(table, paint)),
    ...section.lists.flatMap((list) =>
      list.items.length === 1
        ? [`${PAD}${list.title.toLowerCase()}: ${oneLine(list.items[0]!)}`]
        : [
            `${PAD}${list.title.toLowerCase()}:`,
            ...list.items.map((item) => `${PAD}  - ${oneLine(item)}`),
          ],
    ),
  ];
}

/**
 * The sections, each followed by a blank line; nothing for a report without reviews, comparisons,
 * agreement or repeats.
 */
export function trustPretty(report: Report, paint: Paint): string[] {
  return trustSections(report).flatMap((section) => [...sectionLines(section, paint), ""]);
}
