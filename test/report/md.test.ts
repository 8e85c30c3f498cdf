import { describe, expect, it } from "vitest";
import { mdReporter } from "../../lib/report/md";
import { buildSampleReport, sampleResults } from "../support/sample-report";

/** Splits a table row on the pipes that are not escaped. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe("markdown reporter", () => {
  it("has a summary table with one row per result", () => {
    const md = mdReporter.render(buildSampleReport(), { color: false });
    const header = "| Status | Eval | Score | Threshold | Cost | Reason |";
    const lines = md.split("\n");
    const start = lines.indexOf(header);
    expect(start).toBeGreaterThan(-1);
    const rows = lines.slice(start + 2, start + 10);
    expect(rows.every((r) => r.startsWith("| "))).toBe(true);
    expect(lines[start + 10]).toBe("");
    expect(cells(rows[7] ?? "")[0]).toBe("⏭️ skipped (budget)");
    expect(cells(rows[2] ?? "")[0]).toBe("✅ passed (vacuous)");
  });

  it("gives each non-passing result a section with its criteria table, and passes none", () => {
    const md = mdReporter.render(buildSampleReport(), { color: false });
    expect(md).toContain("### ❌ grounded answer with citations");
    expect(md).toContain("### ⚠️ subjective call, juried");
    expect(md).toContain("### ⏸️ books the meeting and confirms");
    expect(md).toContain("### ⏭️ summary quality (claude-haiku-4-5, prompt 1)");
    expect(md).not.toContain("### ✅");
    expect(md).toContain(
      "| Criterion | Outcome | Score | Threshold | Marks | Evidence | Reasoning |",
    );
    expect(md).toContain(
      "| states the version | fail | 0.20 | 0.90 | required (failed) | “The last release” |",
    );
    expect(md).toContain(
      "| invents no figures | fail | 0.15 | 0.70 | guard (triggered) | “cut latency by 40%” |",
    );
  });

  it("escapes pipes, HTML and newlines so a cell stays one cell", () => {
    const results = sampleResults().map((r) => ({
      ...r,
      name: `${r.name} | x`,
      reason: "a | b <script>alert(1)</script>\nsecond line",
      note: undefined,
    }));
    const md = mdReporter.render(buildSampleReport({ results }), { color: false });
    const row = md.split("\n").find((l) => l.includes("refuses the destructive request"));
    expect(row).toBeDefined();
    expect(cells(row ?? "")).toHaveLength(6);
    expect(row).toContain("refuses the destructive request \\| x");
    expect(row).toContain("a \\| b &lt;script&gt;alert(1)&lt;/script&gt;<br>second line");
    expect(md).not.toContain("<script>");
  });

  it("fences the candidate so its own backticks cannot close the block", () => {
    const results = sampleResults().map((r) => ({
      ...r,
      candidate: { ...r.candidate, response: "```\n# not a heading\n```" },
    }));
    const md = mdReporter.render(buildSampleReport({ results }), { color: false });
    expect(md).toContain("````text\n```\n# not a heading\n```\n````");
  });
});
