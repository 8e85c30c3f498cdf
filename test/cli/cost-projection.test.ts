import { describe, expect, test } from "vitest";
import { explainPlan } from "../../lib/engine/plan/explain-plan";
import { planSuite } from "../../lib/engine/plan/plan-suite";
import { cacheMinimumOf } from "../../lib/judge/cache-minimums";
import type { FakeReply, FakeRequest } from "../support/fake-messages-api";
import { suiteFrom } from "../support/run-yaml";
import { makeWorkspace, startFakeJudge } from "./cli-harness";

// The cost preview against what the stand-in bills (issue 10, item 5): what
// `eval --explain` projects for the prompt cache is within 10% of the input the
// stand-in's cache emulation billed for the same suite run through the CLI
// (the smaller siblings of bench:cost's workloads A and B).

const MODEL = "claude-sonnet-4-5";
const filler = (seed: number, sentences: number) =>
  Array.from(
    { length: sentences },
    (_, i) =>
      `Part ${seed}.${i}: the scheduler hands lease ${seed * 31 + i} to worker ${(seed + i) % 17} within ${(i % 40) + 5} ms.`,
  ).join(" ");

// B: dataset items graded by criteria with calibration anchors.
const DATASET = [
  `judge: { model: ${MODEL} }`,
  "datasets:",
  "  questions:",
  "    items:",
  ...Array.from(
    { length: 10 },
    (_, i) =>
      `      - { id: item-${i}, input: "How does component ${i} behave?", expected_output: ${JSON.stringify(filler(i, 4))} }`,
  ),
  "evals:",
  "  - name: answers",
  "    candidates: { dataset: questions }",
  "    rubric:",
  "      criteria:",
  ...["correct", "grounded", "clear"].flatMap((name, c) => [
    `        - name: ${name}`,
    `          description: "The answer is ${name}."`,
    "          examples:",
    ...Array.from(
      { length: 6 },
      (_, a) =>
        `            - { response: ${JSON.stringify(filler(100 + c * 10 + a, 2))}, score: ${(a / 5).toFixed(1)} }`,
    ),
  ]),
  "",
].join("\n");

// A: a long document reviewed by a category rubric.
const REVIEW = [
  `judge: { model: ${MODEL} }`,
  "rubrics:",
  `  design: { name: Design review, review_type: design, evaluation_type: analytic, categories: [${[
    "problem",
    "goals",
    "scaling",
    "rollout",
  ]
    .map((id) => `{ id: ${id}, name: ${id}, description: "The document covers ${id}." }`)
    .join(", ")}] }`,
  "evals:",
  "  - name: scheduler design",
  `    document: { text: ${JSON.stringify(Array.from({ length: 40 }, (_, s) => `## ${s}\n${filler(s + 500, 6)}`).join("\n\n"))}, id: DES-7, title: Scheduler }`,
  "    rubric: { ref: design }",
  "",
].join("\n");

function reply(request: FakeRequest): FakeReply {
  const category = JSON.stringify(request.body.tools ?? []).includes("findings");
  return category
    ? { toolInput: { reasoning: "covered", score: "pass", evidence: [], findings: [] } }
    : { verdict: { reasoning: "met", score: 0.9 } };
}

describe.concurrent("the cost preview against the stand-in's bill", () => {
  test.for([
    ["criteria with anchors over a dataset", DATASET, 30],
    ["a document reviewed by categories", REVIEW, 4],
  ] as const)(
    "%s: the projection is within 10% of the billed input",
    async ([, suite, calls], { onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        promptCache: { minTokens: 1024 },
        latencyMs: 20,
        respond: reply,
      });
      await ws.write("suite.yaml", suite);
      const run = await ws.cli(
        ["eval", "--config", "suite.yaml", "--no-cache", "--concurrency", "8"],
        judge.env,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(judge.api.requests).toHaveLength(calls);
      const sent = judge.api.usage();
      const billed =
        sent.input +
        1.25 * (sent.cacheWrite - sent.cacheWrite1h) +
        2 * sent.cacheWrite1h +
        0.1 * sent.cacheRead;

      const plan = explainPlan(
        planSuite({ suite: suiteFrom(suite), defaultModel: MODEL }),
        () => undefined,
        { cacheMinimumOf, concurrency: 8, judgeCache: false },
      );
      expect(plan.totals.judgeCalls).toBe(calls);
      const { input, write5m, write1h, read } = plan.totals.cacheInput;
      const projected = input + 1.25 * write5m + 2 * write1h + 0.1 * read;
      // The cache pays here, and the preview says so as the bill does.
      expect(billed).toBeLessThan(0.5 * (sent.input + sent.cacheWrite + sent.cacheRead));
      expect(Math.abs(projected / billed - 1)).toBeLessThanOrEqual(0.1);
    },
  );
});
