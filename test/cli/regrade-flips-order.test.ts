import { describe, expect, it } from "vitest";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { useTestDatabase } from "../support/test-database";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A new user's walk (branch trial): a regrade with one criterion edited listed its flips in three
// orders (the flips page's, the JSON report's, pretty's), said two tallies in two vocabularies with
// 220 lines uncut, and pointed at a command that does not exist. Now one order (the flips page's
// query), one tally in the page's words with the first 20 listed, and `npm start`.

const database = useTestDatabase();

const ITEMS = 40;
const suite = (concise: string) =>
  yaml(
    "judge: { model: claude-sonnet-4-6 }",
    "datasets:",
    "  answers:",
    "    items:",
    ...Array.from(
      { length: ITEMS },
      (_, i) =>
        `      - { id: i${i + 1}, input: "Question ${i + 1}?", expected_output: "Answer number ${i + 1}." }`,
    ),
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: answers }",
    "    rubric:",
    "      threshold: 0.7",
    "      criteria:",
    "        - { name: accurate, description: States the answer. }",
    `        - { name: concise, description: "${concise}" }`,
  );

/**
 * "accurate" is 0.9 throughout; "concise" was 0.9 (0.2 for every sixth item) and, made strict,
 * depends on the item: some now fail by different margins, some now pass, some only flip
 * "concise", and i1 does not change at all.
 */
const STRICT = [0.9, 0.9, 0.6, 0.4, 0.1, 0.3];
const verdictOf = (request: { user: string; system: string }) => {
  const item = Number(/Answer number (\d+)/.exec(candidateOf(request))?.[1]);
  const concise = request.user.includes("concise");
  const strict = request.system.includes("strict");
  const score = !concise ? 0.9 : strict ? STRICT[item % 6]! : item % 6 === 0 ? 0.2 : 0.9;
  return { verdict: { reasoning: "ok", score } };
};

interface Json {
  runId: string;
  results: { name: string }[];
}

describe("a regrade's flips", () => {
  it("come in the flips page's order everywhere, counted once in its words, the first 20 listed", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: verdictOf });
    const env = { ...judge.env, DATABASE_URL: database.url };
    await ws.write("suite.yaml", suite("No filler."));
    const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
    expect(first.code, first.stderr).toBe(1);
    const source = JSON.parse(first.stdout) as Json;
    await ws.write("edited.yaml", suite("No filler, strict."));

    // The flips page's order, page by page, as the dashboard reads it.
    const views = createRegradeViews(database.prisma);
    const pageOrder = async (runId: string) => {
      const names: string[] = [];
      let after: string | undefined;
      do {
        const page = await views.flipPage({ runId, ...(after ? { after } : {}) });
        names.push(...page.pairs.map((p) => p.current.name));
        after = page.nextCursor ?? undefined;
      } while (after);
      return names;
    };

    const json = await ws.cli(
      ["regrade", source.runId, "--config", "edited.yaml", "--reporter", "json"],
      env,
    );
    expect(json.code, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout) as Json;
    const page = await pageOrder(report.runId);
    expect(page).toHaveLength(33);
    const names = report.results.map((r) => r.name);
    // Soft: each of the walk's three findings is checked, whichever fails first.
    // The changed results as the page lists them (biggest change first), then the unchanged ones.
    expect.soft(names.slice(0, page.length)).toEqual(page);
    expect.soft(names[0]).not.toBe("answers [item=i3]");
    expect(names.slice(page.length)).toContain("answers [item=i1]");
    const again = await ws.cli(["report", report.runId, "--reporter", "json"], env);
    expect.soft((JSON.parse(again.stdout) as Json).results.map((r) => r.name)).toEqual(names);

    // The pretty output: one tally, in the page's words, the page's first 20 and a count of the rest.
    const pretty = await ws.cli(["regrade", source.runId, "--config", "edited.yaml"], env);
    expect(pretty.code, pretty.stderr).toBe(1);
    const regradeId = /Storing run ([0-9a-f-]{36})/.exec(pretty.stderr)![1]!;
    const said = `${pretty.stdout}\n${pretty.stderr}`;
    expect.soft(said).not.toMatch(/Against baseline run|newly passing|newly failing|regressed/);
    expect.soft(said.match(/Against run /g)).toHaveLength(1);
    expect
      .soft(pretty.stderr)
      .toContain(
        `Against run ${source.runId}: 33 flips: 20 now fail, 6 now pass, 7 with a criterion flipped; 7 unchanged; 27 regressions at --max-drop 0.05 (20 that now fail, 7 whose score dropped by more than 0.05)`,
      );
    const listed = pretty.stderr
      .split("\n")
      .filter((line) => /^ {2}(now fails|now passes|a criterion flipped|moved) /.test(line))
      .map((line) => /(answers \[item=i\d+\])/.exec(line)![1]);
    expect.soft(listed).toEqual((await pageOrder(regradeId)).slice(0, 20));
    expect.soft(pretty.stderr).toContain("  … and 13 more\n");
    expect
      .soft(pretty.stderr)
      .toContain("a report written as the run went lists every result in the suite's order");
    // The pointer names the dashboard as the README does, not a command that does not exist.
    const last = pretty.stderr.trimEnd().split("\n").at(-1);
    expect
      .soft(last)
      .toBe(
        `Each change with both verdicts side by side in the dashboard (npm start): /runs/${regradeId}/flips`,
      );
    expect(pretty.stderr).not.toContain("rubric-studio serve");
  }, 120_000);
});
