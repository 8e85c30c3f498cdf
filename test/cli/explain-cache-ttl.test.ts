import { describe, expect, test } from "vitest";
import { makeWorkspace, yaml } from "./cli-harness";

// `eval --explain`'s total line must not contradict itself: "with the prompt
// cache ... (no prefix cached)" and then "the rubric's prefix cached for 1 hour".
// Below every model's minimum cacheable length the API caches nothing, whatever
// TTL the run asks, so the TTL is named only when a prefix is cached.

const criteria = (n: number, chars: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `        - { name: c${i}, description: "${`Criterion ${i} holds for the answer. `.repeat(Math.ceil(chars / 36)).slice(0, chars)}" }`,
  );

const suite = (chars: number) =>
  yaml(
    "judge: { model: claude-sonnet-4-6, jury: { size: 3 } }",
    "evals:",
    "  - name: big twelve",
    '    response: "Some answer."',
    "    matrix:",
    "      models: [claude-sonnet-4-6, claude-haiku-4-5]",
    "    rubric:",
    "      criteria:",
    ...criteria(12, chars),
  );

describe.concurrent("eval --explain: the prompt cache's TTL", () => {
  test("a 12-criterion rubric, a jury of 3 and a matrix, no prefix at the minimum: nothing cached, no TTL claimed", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", suite(20));
    const explain = await ws.cli([
      "eval",
      "--config",
      "suite.yaml",
      "--explain",
      "--concurrency",
      "1",
    ]);
    const cost = /^Cost: .*$/m.exec(explain.stdout)?.[0] ?? "";
    expect(cost).toContain("(no prefix cached)");
    expect(cost).not.toMatch(/prefix cached for/);
    expect(cost).toContain(
      "nothing is cached: no shared prefix reaches its judge model's minimum cacheable length",
    );
  });

  test("a rubric past the minimum: the prefix is written and read, and its TTL is named", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write("suite.yaml", suite(1200));
    const explain = await ws.cli(["eval", "--config", "suite.yaml", "--explain"]);
    const cost = /^Cost: .*$/m.exec(explain.stdout)?.[0] ?? "";
    expect(cost).toMatch(/\([\d,]+ input tokens written, [\d,]+ read\)/);
    expect(cost).toMatch(/the rubric's prefix cached for (5 minutes|1 hour)$/);
  });
});
