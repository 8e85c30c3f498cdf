import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanPanel } from "../../../components/authoring/plan-panel";
import { checkedDraft, explainedDraft } from "./checked-draft";

// The editor's projected cost is the run's whole cost, judges and generation, the figure
// `eval --explain` ends with ("with the judge calls ~$x"), split beneath as the run page splits it.

const SUITE = `judge: { model: claude-sonnet-4-5 }
evals:
  - name: arithmetic
    rubric: "Gives the right number."
    matrix:
      agents: [claude-haiku-4-5]
      prompts: ["What is 2 + 2?", "What is 8 / 2?", "What is 3 + 1?"]
`;

describe("the plan panel's projected cost with generated candidates", () => {
  it("is the total --explain gives, judges + generation beneath it", () => {
    const check = checkedDraft(SUITE);
    const plan = check.plan!;
    expect(plan.generationCalls).toBe(3);
    const explain = explainedDraft(SUITE);
    const total = /with the judge calls ~(\$\d+\.\d+)/.exec(explain)?.[1];
    expect(total).toBeDefined();
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    expect(html).toContain(`data-testid="plan-cost">${total}<`);
    const apart = /data-testid="plan-cost-apart">(.*?)<\/div>/
      .exec(html)?.[1]
      ?.replace(/<!-- -->/g, "");
    expect(apart).toMatch(/^judges \$[\d.]+ \+ generation \$[\d.]+$/);
  });
});
