import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanPanel } from "../../../components/authoring/plan-panel";
import { planEvalRows } from "../../../components/authoring/plan-evals";
import { checkedDraft, explainedDraft } from "./checked-draft";
import { matrixSuite } from "../../support/matrix-suite";
import { formatUsd } from "../../../lib/engine/results/format-score";

// The plan panel at a real suite's size (20 evals × a 50-prompt matrix = 1,000 cells): one row
// per eval, its cells summed; the cells only on demand; the totals those of `eval --explain`.

const BIG = matrixSuite({ evals: 20, prompts: 50 });
const render = (yaml: string) =>
  renderToStaticMarkup(createElement(PlanPanel, { check: checkedDraft(yaml), checking: false }));

describe("the plan panel's rows at 20 evals × 50 prompts", () => {
  it("lists one row per eval, not one per cell", () => {
    const html = render(BIG);
    expect(html.match(/data-testid="plan-eval"/g)).toHaveLength(20);
    expect(html.match(/data-cells="50"/g)).toHaveLength(20);
    // No cell is drawn until its eval's breakdown is opened; each eval offers its 50.
    expect(html).not.toContain('data-testid="plan-cell"');
    expect(html.match(/aria-expanded="false"[^>]*>50 cells/g)).toHaveLength(20);
    expect(html).toMatch(/data-testid="plan-cells">1,000</);
  });

  it("sums each eval's cells into figures that add up to the totals `eval --explain` prints", () => {
    const plan = checkedDraft(BIG).plan!;
    const rows = planEvalRows(plan.evals);
    expect(rows.map((r) => [r.name, r.cells.length, r.judgeCalls])).toEqual(
      Array.from({ length: 20 }, (_, e) => [`eval ${e + 1}`, 50, 50]),
    );
    const sum = (key: "judgeCalls" | "naiveUsd" | "costUsd" | "batchUsd" | "rerunUsd") =>
      rows.reduce((n, r) => n + (r[key] ?? Number.NaN), 0);
    expect(sum("judgeCalls")).toBe(plan.judgeCalls);
    expect(sum("naiveUsd")).toBeCloseTo(plan.naiveUsd, 9);
    expect(sum("costUsd")).toBeCloseTo(plan.costUsd, 9);
    expect(sum("batchUsd")).toBeCloseTo(plan.batchUsd, 9);
    expect(sum("rerunUsd")).toBeCloseTo(plan.rerunUsd, 9);

    const explain = explainedDraft(BIG);
    // --explain's last "with batches" is its total; the panel's headline reads the same.
    const batchTotal = [...explain.matchAll(/with batches ~(\$\d[\d,]*(?:\.\d+)?)/g)].at(-1)![1];
    expect(batchTotal).toBe(formatUsd(plan.batchUsd));
    expect(render(BIG)).toContain(`data-testid="plan-batch-cost">${batchTotal}<`);
  });

  it("an eval of one cell is its row, with nothing to open", () => {
    const html = render(`judge: { model: claude-sonnet-4-5 }
evals:
  - name: greets
    response: "Hello."
    rubric: "Greets the user."
`);
    expect(html.match(/data-testid="plan-eval"/g)).toHaveLength(1);
    expect(html).not.toContain("aria-expanded");
  });

  it("an unpriced judge: each eval's sum says unpriced, never $0", () => {
    const html = render(
      matrixSuite({ evals: 2, prompts: 3 }).replace("claude-sonnet-4-5", "local-qwen3"),
    );
    const rows = [...html.matchAll(/data-testid="plan-eval"[^>]*>(.*?)<\/tr>/g)].map((m) =>
      m[1]!
        .replace(/<[^>]+>/g, " ")
        .trim()
        .split(/\s{2,}|\s(?=\$|unpriced)/),
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.slice(1, 4)).toEqual(["unpriced", "unpriced", "unpriced"]);
  });
});
