import { describe, expect, it } from "vitest";
import { XMLParser } from "fast-xml-parser";
import type { JudgePort, TokenUsage } from "../../lib/engine/ports/judge-port";
import type { Report } from "../../lib/engine/results/report";
import { REPORTERS } from "../../lib/report/registry";
import { priceOf } from "../../lib/judge/pricing";
import { criterionOf } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";

// What the caches saved, through the engine into every reporter that has a
// place for it, worked by hand at claude-sonnet-4-5's $3 / MTok input:
// - "first" writes 100,000 tokens to the prompt cache: 1.25x instead of 1x,
//   100,000 × $3 × 0.25 = $0.075 more (a saving of -$0.0750);
// - "second" reads them: 0.1x instead of 1x, 100,000 × $3 × 0.9 = $0.27 saved;
//   net $0.195;
// - the other eval's (free-form) verdict is reused from the judge cache: its call cost $0.05.
// Saved in all: $0.245. A model with no price shows "unpriced", never a dollar figure.

const suite = (model: string) => `
evals:
  - name: cached eval
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { model: ${model} }
    rubric:
      criteria:
        - { name: first, description: "States the change." }
        - { name: second, description: "Names the version." }
  - name: reused eval
    response: "Fixed the login bug."
    judge: { model: ${model} }
    rubric: "States the fix."
`;

const usage = (u: Partial<TokenUsage>): TokenUsage => ({
  input: 200,
  output: 300,
  cacheRead: 0,
  cacheWrite: 0,
  ...u,
});

/** A judge as the real one answers through the judge cache: cache tokens in the usage, a reused verdict marked so. */
function cachingJudge(priced: boolean): JudgePort {
  return {
    grade: async (request) => {
      const name = criterionOf(request);
      const base = {
        model: request.model,
        templateVersion: request.templateVersion,
        attempts: 1,
        latencyMs: 5,
      };
      const call =
        name === undefined
          ? {
              ...base,
              usage: usage({ input: 0, output: 0 }),
              costUsd: 0,
              reused: { savedUsd: priced ? 0.05 : null },
            }
          : {
              ...base,
              usage: usage(name === "first" ? { cacheWrite: 100_000 } : { cacheRead: 100_000 }),
              costUsd: priced ? 0.01 : null,
            };
      return { ok: true, verdict: { reasoning: "fine", score: 0.9 }, call };
    },
  };
}

async function report(priced: boolean): Promise<Report> {
  return runYaml(suite(priced ? "claude-sonnet-4-5" : "local-qwen"), {
    judge: cachingJudge(priced),
    priceOf,
  });
}

const render = (r: Report, name: keyof typeof REPORTERS) =>
  REPORTERS[name].render(r, { color: false });
const RUN_LINE =
  "saved $0.2450: prompt cache $0.1950 (reads 100,000 tokens $0.2700, writes 100,000 tokens -$0.0750), judge cache $0.0500 (1 reused verdict)";

describe("savings in every reporter", () => {
  it("pretty: one line under the totals with the prompt cache's reads, writes and net and the judge cache", async () => {
    const text = render(await report(true), "pretty");
    expect(text).toContain(RUN_LINE);
    // One saved figure per question: the old "reused ... saving" line is gone.
    expect(text).not.toContain("reused 1 judge verdict from the cache");
  });

  it("json and ndjson: the figures themselves, per run and per eval", async () => {
    const parsed = JSON.parse(render(await report(true), "json"));
    expect(parsed.summary.savings).toEqual({
      promptCache: {
        readTokens: 100_000,
        writeTokens: 100_000,
        reads: { usd: 0.27, unpriced: false },
        writes: { usd: -0.075, unpriced: false },
        net: { usd: 0.195, unpriced: false },
      },
      judgeCache: { calls: 1, saved: { usd: 0.05, unpriced: false } },
      total: { usd: 0.245, unpriced: false },
    });
    expect(parsed.results[0].savings.promptCache.net.usd).toBe(0.195);
    expect(parsed.results[1].savings.judgeCache.saved.usd).toBe(0.05);
    // ndjson: the same figures on the summary line and each result's line.
    const lines = render(await report(true), "ndjson")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.at(-1).savings.total).toEqual({ usd: 0.245, unpriced: false });
    expect(lines[1].savings.promptCache.net.usd).toBe(0.195);
  });

  it("md and html: per run, a Saved column per eval, and each eval's own figures", async () => {
    const r = await report(true);
    const md = render(r, "md");
    expect(md).toContain(RUN_LINE);
    expect(md).toMatch(/\| Cost \| Saved \| Reason \|/);
    expect(md).toMatch(/cached eval \| 0\.90 \| 0\.70 \| \$0\.0200 \| \$0\.1950 \|/);
    expect(md).toMatch(/reused eval \| 0\.90 \| 0\.70 \| \$0 \| \$0\.0500 \|/);
    const html = render(r, "html");
    expect(html).toContain('<div class="card"><b>$0.2450</b>saved</div>');
    expect(html).toContain(
      "Saved by prompt cache $0.1950 (reads 100,000 tokens $0.2700, writes 100,000 tokens -$0.0750); judge cache $0.0500 (1 reused verdict)",
    );
    expect(html).toContain(
      "<dt>Saved</dt><dd>$0.1950: prompt cache $0.1950 (reads 100,000 tokens $0.2700, writes 100,000 tokens -$0.0750)</dd>",
    );
  });

  it("junit: suite and testcase properties", async () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(
      render(await report(true), "junit"),
    );
    const props = (list: { "@_name": string; "@_value": string }[]) =>
      Object.fromEntries(list.map((p) => [p["@_name"], p["@_value"]]));
    const suiteProps = props(xml.testsuites.testsuite.properties.property);
    expect(suiteProps).toMatchObject({
      saved_usd: "0.245",
      saved_usd_prompt_cache_reads: "0.27",
      saved_usd_prompt_cache_writes: "-0.075",
      saved_usd_prompt_cache_net: "0.195",
      saved_usd_judge_cache: "0.05",
      reused_verdicts: "1",
    });
    const cases = xml.testsuites.testsuite.testcase;
    expect(props(cases[0].properties.property).saved_usd).toBe("0.195");
    expect(props(cases[1].properties.property).saved_usd_judge_cache).toBe("0.05");
  });

  it("an unpriced model: its tokens, and 'unpriced' for the cost and every saving, never a dollar figure", async () => {
    const r = await report(false);
    const line =
      "saved unpriced: prompt cache unpriced (reads 100,000 tokens unpriced, writes 100,000 tokens unpriced), judge cache unpriced (1 reused verdict)";
    const pretty = render(r, "pretty");
    expect(pretty).toContain(line);
    expect(pretty).toMatch(/cache read 100,000, cache write 100,000\) · cost unpriced/);
    const md = render(r, "md");
    expect(md).toContain(line);
    expect(md).toContain("cost unpriced");
    const html = render(r, "html");
    expect(html).toContain('<div class="card"><b>unpriced</b>cost</div>');
    expect(html).toContain('<div class="card"><b>unpriced</b>saved</div>');
    expect(JSON.parse(render(r, "json")).summary.savings.total).toEqual({
      usd: null,
      unpriced: true,
    });
    expect(render(r, "junit")).toContain('<property name="saved_usd" value="unpriced"/>');
  });
});
