import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanPanel } from "../../../components/authoring/plan-panel";
import { checkedDraft, explainedDraft } from "./checked-draft";
import { checkDraft } from "../../../lib/engine/plan/check-draft";
import { cacheMinimumOf } from "../../../lib/judge/cache-minimums";
import { priceOf } from "../../../lib/judge/pricing";
import { formatUsd } from "../../../lib/engine/results/format-score";

// The editor's plan panel (issue 10, item 5): per eval, as `eval --explain`
// shows it, the naive cost, the cost with the prompt cache, with batches and
// that of an unchanged rerun, not only a total.

const rubric = (chars: number) =>
  `"${"The answer names the change and the version it shipped in. ".repeat(Math.ceil(chars / 60)).slice(0, chars)}"`;
const SUITE = `judge: { model: claude-sonnet-4-5 }
evals:
  - name: long rubric
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric:
      criteria:
        - { name: accurate, description: ${rubric(8000)} }
        - { name: complete, description: "Mentions every notable change." }
  - name: short rubric
    response: "Hello."
    rubric: "Greets the user."
`;

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the plan panel", () => {
  it("shows one row per eval with its naive, cached, batch and rerun cost", () => {
    const check = checkedDraft(SUITE);
    const evals = check.plan!.evals;
    expect(evals.map((e) => [e.name, e.judgeCalls])).toEqual([
      ["long rubric", 2],
      ["short rubric", 1],
    ]);
    // The long rubric clears Sonnet 4.5's 1,024-token minimum: the second call reads it. The short one is below it.
    expect(evals[0]!.costUsd!).toBeLessThan(evals[0]!.naiveUsd!);
    expect(evals[1]!.costUsd).toBeCloseTo(evals[1]!.naiveUsd!);
    expect(evals.map((e) => e.rerunUsd)).toEqual([0, 0]);

    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    // One tbody per eval: its name on a line of its own, then its figures.
    const rows = html.split("<tbody>").slice(1).map(text);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^ long rubric 2 \$[\d.]+ \$[\d.]+ \$[\d.]+ \$0 $/);
    expect(rows[1]).toMatch(/^ short rubric 1 \$[\d.]+ \$[\d.]+ \$[\d.]+ \$0 /);
    expect(text(html)).toContain("naive (no cache)");
    expect(text(html)).not.toContain("not available yet");
  });

  it("says which eval's cost with the cache comes from what the cache writes and reads, as --explain does", () => {
    const check = checkedDraft(SUITE);
    const [long, short] = check.plan!.evals;
    // Two calls share the long rubric's prefix: the first writes it, the second reads the same tokens.
    expect(long!.cacheWriteTokens).toBeGreaterThan(1024);
    expect(long!.cacheReadTokens).toBe(long!.cacheWriteTokens);
    expect([short!.cacheWriteTokens, short!.cacheReadTokens]).toEqual([0, 0]);
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    expect(html).toContain(
      `title="${long!.cacheWriteTokens.toLocaleString("en-US")} input tokens written to the prompt cache, ${long!.cacheReadTokens.toLocaleString("en-US")} read"`,
    );
  });

  it("an unpriced judge model: 'unpriced' per eval and in the totals, never a made-up $0 (issue 11)", () => {
    const check = checkedDraft(SUITE.replace("claude-sonnet-4-5", "local-qwen3"));
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    for (const id of ["plan-cost", "plan-naive-cost", "plan-batch-cost"])
      expect(html).toMatch(new RegExp(`data-testid="${id}">unpriced<`));
    // An unchanged rerun of fixed responses is answered by the judge cache: truly $0, priced or not.
    expect(html).toMatch(/data-testid="plan-rerun-cost">\$0</);
    // One tbody per eval: its name on a line of its own, then its figures.
    const rows = html.split("<tbody>").slice(1).map(text);
    expect(rows[0]).toMatch(/^ long rubric 2 unpriced unpriced unpriced \$0 $/);
    expect(text(html)).toContain("Not in the pricing table, so not in the cost: local-qwen3.");
  });

  it("reads every amount at one precision: never $0.01 beside $0.0061", () => {
    const check = checkedDraft(SUITE);
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    const amounts = [...html.matchAll(/\$(\d+\.\d+)/g)].map((m) => m[1]!);
    const small = amounts.filter((a) => a.startsWith("0."));
    expect(small.length).toBeGreaterThan(4);
    expect(small.filter((a) => !/^0\.\d{4}$/.test(a))).toEqual([]);
  });

  it("gives the cost with batches per eval and in total, the figures `eval --explain` prints", () => {
    const check = checkedDraft(SUITE);
    const explain = explainedDraft(SUITE);
    // `--explain`'s "with batches ~$x" per eval, then the total's.
    const explained = [...explain.matchAll(/with batches ~(\$[\d.]+)/g)].map((m) => m[1]);
    expect(explained).toHaveLength(3);
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    // The fourth figure of each eval: Calls, Naive, With cache, Batch, Rerun.
    const batchCell = (row: string) =>
      [...row.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1])[3];
    const rows = html.split("<tbody>").slice(1);
    // Each eval's Batch cell and the total are --explain's figures, half the cost with the cache.
    expect(rows.map(batchCell)).toEqual(explained.slice(0, 2));
    expect(check.plan!.evals.map((e) => e.batchUsd)).toEqual(
      check.plan!.evals.map((e) => e.costUsd! / 2),
    );
    expect(html).toContain(`data-testid="plan-batch-cost">${explained.at(-1)}<`);
    expect(explained.at(-1)).toBe(formatUsd(check.plan!.batchUsd));
  });
});

describe("the plan panel's count of what is graded", () => {
  it("names cells and the evals they come from, as validate and --explain do (a matrix makes 2 cells of one eval)", async () => {
    const { readFile } = await import("node:fs/promises");
    const example = await readFile(
      new URL("../../../examples/rubric-eval.yaml", import.meta.url),
      "utf8",
    );
    const check = checkedDraft(example, "rubric-eval.yaml");
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    expect(text(html)).toContain("6 cells of 5 evals");
    expect(text(html)).not.toMatch(/evals \(cells\)/i);
  });
});

describe("the plan panel's unchanged rerun", () => {
  it("is ~$0 (runs from the dashboard are stored) and says judge errors are paid again", () => {
    const check = checkedDraft(SUITE);
    const html = renderToStaticMarkup(createElement(PlanPanel, { check, checking: false }));
    expect(html).toMatch(/data-testid="plan-rerun-cost">\$0</);
    expect(html).toMatch(
      /title="A run from here is stored, so the judge cache answers[^"]*judge errors are not cached and are paid again\.">\s*unchanged rerun/,
    );
    expect(check.plan!.assumptions).toContain("judge errors are not cached");
  });

  it("says its calls and projected cost count the cells that will defer here as if graded", () => {
    const keyless = checkDraft({
      text: SUITE,
      file: "suite.yaml",
      priceOf,
      cacheMinimumOf,
      defaultModel: "claude-sonnet-4-5",
      judgeUnavailable: "no judge key: set ANTHROPIC_API_KEY to grade for real",
    });
    const deferring = text(
      renderToStaticMarkup(createElement(PlanPanel, { check: keyless, checking: false })),
    );
    expect(deferring).toContain("3 judge calls ");
    expect(deferring).toContain("2 will defer (counted above as if graded) ·");
    const keyed = text(
      renderToStaticMarkup(
        createElement(PlanPanel, { check: checkedDraft(SUITE), checking: false }),
      ),
    );
    expect(keyed).toContain("3 judge calls ");
    expect(keyed).not.toContain("as if graded");
    expect(keyed).toContain("projected, with the prompt cache");
  });
});

// A walk's finding: a suite of short rubrics showed the same figure as naive and as projected with
// the cache, with nothing to say why.
describe("a plan the prompt cache cannot help", () => {
  it("says why its projected cost is the naive one; a plan the cache helps says nothing", () => {
    const short = checkedDraft(`evals:
  - name: short rubric
    response: "Hello."
    rubric: "Greets the user."
`);
    const shortRaw = renderToStaticMarkup(
      createElement(PlanPanel, { check: short, checking: false }),
    ).replace(/&#x27;/g, "'");
    // Said in the label's own words, so the panel is no taller (Problems stays in view), and why on hover.
    expect(text(shortRaw)).toContain("with the prompt cache: no saving");
    expect(text(shortRaw)).not.toContain("projected, with the prompt cache");
    expect(shortRaw).toMatch(
      /title="Equal to naive: the prompt cache saves only where calls share a prefix at least as long as the judge model's minimum/,
    );
    const long = text(
      renderToStaticMarkup(
        createElement(PlanPanel, { check: checkedDraft(SUITE), checking: false }),
      ),
    );
    expect(long).not.toContain("no saving");
    expect(long).toContain("projected, with the prompt cache");
  });
});

// A walk's finding: "every price halved" beside an openai: row whose batch figure was its naive one.
describe("the plan's batch estimate", () => {
  it("says only a Claude call is halved, another provider's is made directly at its price", () => {
    const html = text(
      renderToStaticMarkup(
        createElement(PlanPanel, { check: checkedDraft(SUITE), checking: false }),
      ),
    ).replace(/&#x27;/g, "'");
    expect(html).not.toContain("every price halved");
    expect(html).toContain(
      "a Claude call's price halved; a call to another provider is made directly",
    );
  });
});
