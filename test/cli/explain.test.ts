import { expect, test } from "vitest";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `eval --explain` is how a user learns what a run will cost before paying for
// it: per eval the rubric, the candidate, the judges and the number of judge
// calls, and the projected cost; and it must call no provider at all.

const SUITE = yaml(
  "evals:",
  "  - name: juried panel",
  '    response: "The 2.3.0 release added per-tenant rate limits."',
  "    rubric:",
  "      threshold: 0.8",
  "      criteria:",
  "        - { name: accurate, description: States the change. }",
  "        - { name: complete, description: Mentions every change., weight: 2 }",
  "        - { name: brief, description: No filler. }",
  "        - name: apologizes",
  "          description: Apologizes for the outage.",
  "          when: { contains: outage } # not in the response: skipped, costs nothing",
  "    judge:",
  "      panel: [claude-sonnet-4-5, claude-haiku-4-5]",
  "      jury: { size: 2 }",
  "    matrix:",
  '      prompts: ["Summarize the release.", "Summarize the release in one sentence."]',
  "  - name: walks a tree",
  '    response: "It is 18C and clear in Paris."',
  "    judge: { model: claude-sonnet-4-5 }",
  "    rubric:",
  "      tree:",
  '        ask: "Called the weather tool?"',
  "        yes:",
  '          ask: "States a temperature?"',
  "          yes:",
  '            ask: "States the sky?"',
  "            yes: { score: 1 }",
  "            no: { score: 0.7 }",
  "          no: { score: 0.4 }",
  "        no: { score: 0 }",
  "  - name: model matrix",
  '    response: "Invoice 42 totaled $120.00."',
  '    rubric: "Accurate and polite."',
  "    matrix:",
  "      models: [claude-sonnet-4-5, claude-haiku-4-5]",
  '      prompts: ["What did invoice 42 total?", "Total of invoice 42?"]',
  "  - name: live run",
  "    server: calendar",
  '    prompt: "Book a meeting."',
  '    rubric: "Booked it."',
);

/** The explain output split into one block per cell, keyed by its first line (the cell name). */
function blocksOf(stdout: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const block of stdout.split("\n\n")) {
    const [name, ...rest] = block.split("\n");
    if (name && rest.some((line) => line.startsWith("  judge:"))) blocks.set(name, rest.join("\n"));
  }
  return blocks;
}

function callsIn(block: string | undefined): number {
  const m = /judge calls: (\d+)/.exec(block ?? "");
  return m ? Number(m[1]) : Number.NaN;
}

test("eval --explain prints rubric, candidate, judges, calls and cost per eval, and sends no request", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const judge = await startFakeJudge(onTestFinished);
  await ws.write("suite.yaml", SUITE);
  const run = await ws.cli(["eval", "--explain", "--config", "suite.yaml"], judge.env);

  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(judge.api.requests).toHaveLength(0);

  const blocks = blocksOf(run.stdout);
  expect([...blocks.keys()]).toEqual([
    "juried panel [prompt=#1]",
    "juried panel [prompt=#2]",
    "walks a tree",
    "model matrix [model=claude-sonnet-4-5, prompt=#1]",
    "model matrix [model=claude-sonnet-4-5, prompt=#2]",
    "model matrix [model=claude-haiku-4-5, prompt=#1]",
    "model matrix [model=claude-haiku-4-5, prompt=#2]",
    "live run",
  ]);

  // 3 applicable criteria × 2 jurors × 2 panel models, in each of 2 prompt cells.
  const panel = blocks.get("juried panel [prompt=#1]")!;
  expect(panel).toMatch(/criteria rubric \(inline\), threshold 0\.80/);
  expect(panel).toMatch(/- complete \(weight 2\)/);
  expect(panel).toMatch(/- apologizes \(.*when contains "outage"/);
  expect(panel).toMatch(/candidate: fixed response \(47 chars\), prompt #1/);
  expect(panel).toMatch(
    /judge: claude-sonnet-4-5 #1 \(anthropic\), claude-sonnet-4-5 #2 \(anthropic\), claude-haiku-4-5 #1 \(anthropic\), claude-haiku-4-5 #2 \(anthropic\)/,
  );
  expect(callsIn(panel)).toBe(12);
  expect(callsIn(blocks.get("juried panel [prompt=#2]"))).toBe(12);

  // A tree costs its longest path: three questions deep.
  const tree = blocks.get("walks a tree")!;
  expect(tree).toMatch(/tree rubric \(inline\)/);
  expect(tree).toMatch(/3 questions on the longest path/);
  expect(tree).toMatch(/judge: claude-sonnet-4-5 \(anthropic\)$/m);
  expect(callsIn(tree)).toBe(3);

  // One call per matrix cell, each cell judged by its own model.
  expect(blocks.get("model matrix [model=claude-haiku-4-5, prompt=#2]")).toMatch(
    /judge: claude-haiku-4-5 \(anthropic\)$/m,
  );
  for (const [name, block] of blocks)
    if (name.startsWith("model matrix")) expect(callsIn(block)).toBe(1);

  // A live candidate is named as such and defers: no calls planned.
  const live = blocks.get("live run")!;
  expect(live).toMatch(/candidate: live agent run against server "calendar"/);
  expect(live).toMatch(/deferred: /);
  expect(live).not.toMatch(/judge calls:/);

  // Every graded cell has a positive projected cost, and the total line sums the calls.
  for (const [name, block] of blocks)
    if (name !== "live run") expect(block).toMatch(/~\$0\.\d*[1-9]\d*$/m);
  const plan =
    /^Plan: \d+ evals?, 8 cells \(1 deferred\), (\d+) judge calls, .* projected cost ~\$(\d+\.\d+)$/m.exec(
      run.stdout,
    );
  expect(plan, run.stdout).not.toBeNull();
  expect(Number(plan![1])).toBe(12 + 12 + 3 + 4);
  expect(Number(plan![2])).toBeGreaterThan(0);
});

test("eval --explain and eval say '1 judge call', not '1 judge calls'", async ({
  onTestFinished,
}) => {
  const ws = await makeWorkspace(onTestFinished);
  const judge = await startFakeJudge(onTestFinished);
  await ws.write(
    "suite.yaml",
    yaml("evals:", "  - name: one call", '    response: "Hello."', '    rubric: "Greets."'),
  );
  const explain = await ws.cli(["eval", "--explain", "--config", "suite.yaml"], judge.env);
  expect(explain.stdout).toMatch(/^Plan: 1 eval, 1 cell, 1 judge call, /m);
  expect(explain.stdout).not.toMatch(/1 judge calls/);
  const run = await ws.cli(["eval", "--config", "suite.yaml"], judge.env);
  expect(run.stderr).toMatch(/Grading 1 eval \(1 cell\): 1 judge call, projected/);
});
