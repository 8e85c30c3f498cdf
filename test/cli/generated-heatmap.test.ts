import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { cellHref, MatrixHeatmap } from "../../components/results/matrix-heatmap";
import { cellFilter, parseTableQuery } from "../../components/results/results-query";
import { createRunQueries } from "../../lib/store/run-queries";
import { createRunViews } from "../../lib/store/run-views";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { useTestDatabase } from "../support/test-database";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// The run page's heatmap of a matrix of agents × prompts with generated
// candidates (issue 19): a run stored by the real CLI against the Messages
// API stand-in. Its rows are the candidate models (the agents), not the one
// judge, each cell is one agent's results on one prompt (not both agents'
// pooled), and a cell's link lists exactly that agent's results.

const database = useTestDatabase();

describe("the heatmap of generated candidates", () => {
  it(
    "has a row per candidate model named after it, the judge nowhere on the axis, and a cell lists one agent's results",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      // claude-haiku-4-5 answers right, claude-opus-4-1 wrong: the rows must tell them apart.
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) =>
          isJudgeRequest(request)
            ? { verdict: { reasoning: "ok", score: candidateOf(request).includes("is 4") ? 1 : 0 } }
            : {
                text:
                  request.body.model === "claude-haiku-4-5"
                    ? `"${agentPrompt(request)}" is 4.`
                    : `"${agentPrompt(request)}" is 5.`,
              },
      });
      await ws.write(
        "matrix.yaml",
        yaml(
          "judge: { model: claude-sonnet-4-6 }",
          "evals:",
          "  - name: arithmetic",
          '    rubric: "Gives the right number (heatmap)."',
          "    matrix:",
          "      agents: [claude-haiku-4-5, claude-opus-4-1]",
          '      prompts: ["What is 2 + 2? (heatmap)", "What is 8 / 2? (heatmap)"]',
        ),
      );
      const env = { ...judge.env, DATABASE_URL: database.url };
      const run = await ws.cli(["eval", "--config", "matrix.yaml"], env);
      expect(run.code).toBe(1); // claude-opus-4-1 fails
      const runId = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)![1]!;

      const cells = await createRunViews(database.prisma).matrixCells({ runId });
      expect(
        cells
          .map((c) => `${c.agent} ${c.model} #${c.promptIndex}: ${c.passed}/${c.results}`)
          .sort(),
      ).toEqual([
        "claude-haiku-4-5 null #1: 1/1",
        "claude-haiku-4-5 null #2: 1/1",
        "claude-opus-4-1 null #1: 0/1",
        "claude-opus-4-1 null #2: 0/1",
      ]);

      const html = renderToStaticMarkup(createElement(MatrixHeatmap, { runId, cells }));
      const rows = [...html.matchAll(/<th class="[^"]*" title="([^"]*)">/g)].map((m) => m[1]);
      expect(rows).toEqual(["claude-haiku-4-5", "claude-opus-4-1"]);
      expect(html).toContain("Candidate model \\ prompt");
      expect(html).not.toContain("claude-sonnet-4-6");
      expect(html).not.toContain("(judges as configured)");

      // A cell's link, read back as the run page reads it, lists that agent's one result.
      const opus = cells.find((c) => c.agent === "claude-opus-4-1" && c.promptIndex === 2)!;
      const href = new URL(cellHref(runId, opus), "http://localhost");
      const cell = cellFilter(parseTableQuery(Object.fromEntries(href.searchParams)));
      const page = await createRunQueries(database.prisma).runResultsPage({
        runId,
        cell: cell!,
        pageSize: 10,
      });
      expect(page.rows.map((r) => [r.name, r.status])).toEqual([
        [expect.stringContaining("claude-opus-4-1"), "failed"],
      ]);
    },
  );
});
