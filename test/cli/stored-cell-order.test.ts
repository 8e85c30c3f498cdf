import { describe, expect, it } from "vitest";
import { createRunExport } from "../../lib/store/run-export";
import { createRunQueries } from "../../lib/store/run-queries";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A walk's finding: the CLI listed a matrix's judge models as the file lists them (sonnet, then
// haiku) and a dataset's items in the file's order, but the run page's table, in what it calls
// the suite's order, put haiku first and the items alphabetically. One run, one order, wherever
// it is listed: the CLI's report, the run page, the CSV export and `report RUN_ID`.

const database = useTestDatabase();

describe("a stored run's results", () => {
  it(
    "come in the order the CLI printed them: the matrix's models and a dataset's items as the file lists them",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      await ws.write(
        "order.yaml",
        yaml(
          "datasets:",
          "  tickets:",
          "    items:",
          '      - { id: zeta, expected_output: "Z." }',
          '      - { id: alpha, expected_output: "A." }',
          '      - { id: q10, expected_output: "Ten." }',
          '      - { id: q2, expected_output: "Two." }',
          "evals:",
          "  - name: answers",
          '    response: "Four."',
          '    rubric: "Gives the right number."',
          "    matrix:",
          "      models: [claude-sonnet-4-6, claude-haiku-4-5]",
          '      prompts: ["b first", "a second"]',
          "  - name: tickets",
          '    rubric: "Answers the ticket."',
          "    candidates: { dataset: tickets }",
          "    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }",
        ),
      );
      const run = await ws.cli(
        ["eval", "--config", "order.yaml", "--store", "--reporter", "json"],
        { ...judge.env, DATABASE_URL: database.url },
      );
      expect(run.code, run.stderr).toBe(0);
      const printed = (JSON.parse(run.stdout) as { results: { name: string }[] }).results.map(
        (r) => r.name,
      );
      expect(printed.slice(0, 3)).toEqual([
        "answers [model=claude-sonnet-4-6, prompt=#1]",
        "answers [model=claude-sonnet-4-6, prompt=#2]",
        "answers [model=claude-haiku-4-5, prompt=#1]",
      ]);
      expect(printed[4]).toBe("tickets [item=zeta, model=claude-sonnet-4-6]");
      const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;

      // The run page's table, in its default order, page by page.
      const queries = createRunQueries(database.prisma);
      const first = await queries.runResultsPage({ runId, pageSize: 5 });
      const rest = await queries.runResultsPage({ runId, pageSize: 50, cursor: first.nextCursor! });
      expect([...first.rows, ...rest.rows].map((r) => r.name)).toEqual(printed);

      // The CSV export and `report RUN_ID` read the same pages.
      const exported: string[] = [];
      for await (const page of createRunExport(database.prisma).resultPages(runId, 3))
        exported.push(...page.map((r) => r.name));
      expect(exported).toEqual(printed);
      const report = await ws.cli(["report", runId, "--reporter", "json"], {
        DATABASE_URL: database.url,
      });
      expect(report.code, report.stderr).toBe(0);
      expect(
        (JSON.parse(report.stdout) as { results: { name: string }[] }).results.map((r) => r.name),
      ).toEqual(printed);
    },
  );
});
