import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanPanel } from "../../../components/authoring/plan-panel";
import { checkedDraft } from "./checked-draft";

// The editor's plan panel writes its counts as the CLI and the run page do ("3,000 judge calls",
// not "3000"), and sets the projected cost's split (judges + generation) apart from the label in
// small capitals above it: on its own line, in the text's own case.

// 20 evals of 50 generated cells (a matrix axis holds at most 50), each judged on 3 criteria.
const prompts = Array.from({ length: 50 }, (_, i) => `"What is ${i} + 1?"`).join(", ");
const evalYaml = (n: number) => `  - name: arithmetic ${n}
    rubric:
      criteria:
        - { name: right, description: "Gives the right number." }
        - { name: short, description: "Answers in one line." }
        - { name: plain, description: "Uses no jargon." }
    matrix:
      agents: [claude-haiku-4-5]
      prompts: [${prompts}]
`;
const SUITE = `judge: { model: claude-sonnet-4-5 }
evals:
${Array.from({ length: 20 }, (_, i) => evalYaml(i + 1)).join("")}`;

const text = (html: string) => html.replace(/<!-- -->/g, "");

describe("the plan panel's figures", () => {
  const check = checkedDraft(SUITE);
  const html = text(renderToStaticMarkup(createElement(PlanPanel, { check, checking: false })));

  it("writes 3,000 judge calls with a thousands separator, and the cells too", () => {
    expect(check.plan!.judgeCalls).toBe(3000);
    expect(html).toContain('data-testid="plan-calls">3,000<');
    expect(html).toContain(">1,000<");
    expect(html).toContain("Generation: 1,000 calls");
  });

  it("sets the projected split on a line of its own, not in the label's small capitals", () => {
    const apart = /<div class="([^"]*)" data-testid="plan-cost-apart">(.*?)<\/div>/.exec(html);
    expect(apart?.[2]).toMatch(/^judges \$[\d.]+ \+ generation \$[\d.]+$/);
    const cls = apart![1]!;
    expect(cls).not.toBe("label");
    // Its style: a block (its own line), in normal case.
    const css = readFileSync("app/globals.css", "utf8");
    const rule = new RegExp(`\\.${cls}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? "";
    expect(rule).toContain("display: block");
    expect(rule).toContain("text-transform: none");
  });
});
