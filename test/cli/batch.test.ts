import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `eval --batch` through the real CLI and the SDK's `messages.batches` against
// the stand-in's Message Batches endpoints: rounds (a tree's levels, repairs,
// retries), half prices, expired and errored requests. Resume after a kill
// and the judge cache are in batch-resume.test.ts.

const FAST = ["--batch", "--poll-interval", "0.05"];

const JURY_AND_TREE = yaml(
  "evals:",
  "  - name: juried answer",
  '    response: "The 2.3.0 release added per-tenant rate limits."',
  "    judge: { model: claude-sonnet-4-5, jury: { size: 3 } }",
  "    rubric:",
  "      threshold: 0.5",
  "      criteria:",
  "        - { name: accurate, description: States the change. }",
  "        - { name: brief, description: No filler. }",
  "  - name: walks a tree",
  '    response: "It is 18C and clear in Paris."',
  "    judge: { model: claude-sonnet-4-5 }",
  "    rubric:",
  "      tree:",
  '        ask: "Does it give the weather?"',
  "        no: { score: 0 }",
  "        yes:",
  '          ask: "Does it give the temperature in Celsius?"',
  "          no: { score: 0.5 }",
  "          yes: { score: 1 }",
);

function calls(report: Report) {
  return report.results.flatMap((r) => r.calls);
}

describe("eval --batch", () => {
  it(
    "grades a jury and a tree through Message Batches, one round per tree level, at half the price",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "yes, it does", score: 0.9 } }),
      });
      await ws.write("suite.yaml", JURY_AND_TREE);

      const run = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", ...FAST],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.summary.passed).toBe(2);
      // No plain Messages request: 3 jurors × 2 criteria and the tree's root in round 1, its second level in round 2.
      expect(judge.api.requests.every((r) => r.customId !== undefined)).toBe(true);
      expect(judge.api.batches.map((b) => b.requests.length)).toEqual([7, 1]);
      expect(report.results.find((r) => r.eval === "walks a tree")?.tree?.path).toHaveLength(2);
      // Each call says which batch answered it, and is billed at half the standard price.
      const all = calls(report);
      expect(all).toHaveLength(8);
      const ids = judge.api.batches.map((b) => b.id);
      for (const call of all) expect(ids).toContain(call.batched?.batchId);
      for (const call of all) {
        const { input, output } = call.usage;
        expect(call.costUsd).toBeCloseTo(((input * 3 + output * 15) / 1e6) * 0.5, 10);
      }
      expect([...judge.api.batchBilled.values()].every((n) => n === 1)).toBe(true);
      // Progress on stderr: the batch's own status and its counts.
      expect(run.stderr).toMatch(
        new RegExp(
          `batch ${ids[0]}: in_progress, 7 submitted, 0 succeeded, 0 errored, 0 expired, 7 processing`,
        ),
      );
      expect(run.stderr).toContain(
        `batch ${ids[0]}: ended, 7 submitted, 7 succeeded, 0 errored, 0 expired`,
      );
      expect(run.stderr).toContain(
        `batch ${ids[1]}: ended, 1 submitted, 1 succeeded, 0 errored, 0 expired`,
      );
      // The report says what batching saved: the same calls at standard prices cost twice as much.
      const batched = report.summary.savings.batch;
      expect(batched?.calls).toBe(8);
      expect(batched?.saved.usd).toBeCloseTo(report.summary.costUsd, 10);
      expect(report.summary.savings.total.usd).toBeCloseTo(
        report.summary.costUsd + (report.summary.savings.promptCache.net.usd ?? 0),
        10,
      );
      expect(run.stderr).toMatch(
        /8 judge calls batched, saving \$[\d.]+ at Message Batches prices/,
      );
    },
  );

  it(
    "--max-cost counts batch prices: a budget the fourth call of a jury passes at standard prices grades every call with --batch",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "fine", score: 0.9 } }),
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "evals:",
          "  - name: juried",
          '    response: "Rate limits per tenant."',
          "    judge: { jury: { size: 4 } }",
          '    rubric: "Names the change."',
        ),
      );
      const explained = await ws.cli(["eval", "--config", "suite.yaml", "--explain"]);
      // The plan's token estimate at the default judge's standard prices ($3 and $15 per MTok):
      // what a call not yet answered is reserved at (e each); an answered call counts at its
      // real cost (c each, from a run without a budget).
      const [, input, output] =
        /~([\d,]+) input \+ ([\d,]+) output tokens, projected cost/.exec(explained.stdout) ?? [];
      const n = (text: string | undefined) => Number(text?.replace(/,/g, ""));
      const e = (n(input) * 3 + n(output) * 15) / 1e6 / 4;
      expect(e).toBeGreaterThan(0);
      const free = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json"],
        judge.env,
      );
      const c = (JSON.parse(free.stdout) as Report).summary.costUsd / 4;
      // With batches every price halves: the fourth call fits when 1.5c + 0.5e <= budget; at
      // standard prices it would pass the budget (3c + e > budget). The budget sits midway.
      const budget = (2.25 * c + 0.75 * e).toFixed(6);

      const standard = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", "--max-cost", budget],
        judge.env,
      );
      expect((JSON.parse(standard.stdout) as Report).summary.skipped).toBe(1);
      const batched = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", "--max-cost", budget, ...FAST],
        judge.env,
      );
      const report = JSON.parse(batched.stdout) as Report;
      expect(report.summary.skipped, batched.stderr).toBe(0);
      expect(report.summary.judgeCalls).toBe(4);
    },
  );

  it("--explain --batch says what batching would save", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", JURY_AND_TREE);
    const plain = await ws.cli(["eval", "--config", "suite.yaml", "--explain"]);
    const batched = await ws.cli(["eval", "--config", "suite.yaml", "--explain", "--batch"]);
    expect(batched.code, batched.stderr).toBe(0);
    const cached =
      /Cost: naive ~\$[\d.]+, with the prompt cache ~\$([\d.]+) .*, with batches ~\$([\d.]+),/.exec(
        plain.stdout,
      );
    expect(cached).not.toBeNull();
    expect(batched.stdout).toContain(
      `With --batch: ~$${cached![2]} instead of ~$${cached![1]} at standard prices`,
    );
    expect(plain.stdout).not.toContain("With --batch");
  });

  it(
    "says an expired request is a judge_error with its reason, never a pass or a fail",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) =>
          request.user.includes("brief")
            ? { batchResult: "expired" }
            : { verdict: { reasoning: "fine", score: 0.9 } },
      });
      await ws.write("suite.yaml", JURY_AND_TREE);

      const run = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", ...FAST],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as Report;
      const juried = report.results.find((r) => r.eval === "juried answer")!;
      expect(juried.status).toBe("judge_error");
      const expired = juried.calls.filter((c) => c.error !== undefined);
      expect(expired).toHaveLength(3);
      for (const call of expired)
        expect(call.error).toMatch(
          /^expired: the request expired in message batch msgbatch_\w+: the Message Batches API did not process it within 24 hours/,
        );
      // An expired request is not retried: nothing more was submitted for it.
      expect(judge.api.batches).toHaveLength(2);
      expect(report.results.find((r) => r.eval === "walks a tree")?.status).toBe("passed");
    },
  );

  it(
    "retries an errored request once, in the next round, and gives up after that",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const seen = new Map<string, number>();
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) => {
          const task = request.user.includes("accurate")
            ? "accurate"
            : request.user.includes("brief")
              ? "brief"
              : "other";
          const n = (seen.get(`${task}${request.body.model}`) ?? 0) + 1;
          seen.set(`${task}${request.body.model}`, n);
          // accurate: errors once then succeeds; brief: errors every time.
          if (task === "brief" || (task === "accurate" && n === 1)) return { status: 529 };
          return { verdict: { reasoning: "fine", score: 0.9 } };
        },
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "evals:",
          "  - name: one",
          '    response: "Rate limits per tenant."',
          "    rubric:",
          "      criteria:",
          "        - { name: accurate, description: States the change. }",
          "        - { name: brief, description: No filler. }",
        ),
      );

      const run = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", ...FAST],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as Report;
      expect(judge.api.batches.map((b) => b.requests.length)).toEqual([2, 2]);
      const [accurate, brief] = report.results[0]!.criteria;
      expect(accurate?.score).toBe(0.9);
      expect(brief?.status).toBe("judge_error");
      expect(report.results[0]!.calls.find((c) => c.error)?.error).toMatch(
        /overloaded: fake 529 \(overloaded_error in message batch msgbatch_\w+, also when retried in the next round\)/,
      );
      expect(report.results[0]!.status).toBe("judge_error");
      expect(run.stderr).toMatch(/ended, 2 submitted, 0 succeeded, 2 errored, 0 expired/);
    },
  );

  it(
    "repairs a reply that does not parse in the next round",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) =>
          request.customId?.endsWith("_r1")
            ? { verdict: { reasoning: "repaired", score: 0.8 } }
            : { text: "I think it is good." },
      });
      await ws.write(
        "suite.yaml",
        yaml(
          "evals:",
          "  - name: one",
          '    response: "Rate limits per tenant."',
          '    rubric: "Names the change."',
        ),
      );

      const run = await ws.cli(
        ["eval", "--config", "suite.yaml", "--reporter", "json", ...FAST],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.results[0]!.score).toBe(0.8);
      const [first, repair] = judge.api.batches.map((b) => b.requests.map((r) => r.custom_id));
      expect(first).toHaveLength(1);
      expect(first![0]).toMatch(/_1$/);
      expect(repair).toEqual([first![0]!.replace(/_1$/, "_r1")]);
      expect(report.results[0]!.calls[0]!.attempts).toBe(2);
    },
  );
});
