import { describe, expect, it } from "vitest";
import type { Report } from "../../lib/engine/results/report";
import { REPORTER_NAMES, REPORTERS } from "../../lib/report/registry";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { startFakeOpenAIApi } from "../support/fake-openai-api";
import { chatAgentPrompt, isChatJudgeRequest } from "../support/openai-agent-script";
import { useTestDatabase } from "../support/test-database";
import { createRegradeViews } from "../../lib/store/regrade-views";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// `regrade` (issue 19): a stored run's generated candidates graded again with
// an edited rubric or another judge, through the real CLI, with no generation
// call; the flips match a hand count and come first.

const database = useTestDatabase();

const PROMPTS = ["What is 2 + 2?", "What is 8 / 2?", "What is 3 + 1?"];

const suite = (localUrl: string, rubric: string, fixed = "4 apples.") =>
  yaml(
    "providers:",
    `  local: { type: openai, base_url: "${localUrl}" }`,
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
    "  - name: arithmetic",
    `    rubric: "${rubric}"`,
    "    matrix:",
    "      agents: [claude-haiku-4-5, local:qwen3-8b]",
    `      prompts: ${JSON.stringify(PROMPTS)}`,
    "  - name: fixed",
    '    prompt: "What is 2 + 2?"',
    `    response: "${fixed}"`,
    `    rubric: "${rubric}"`,
  );

interface Json {
  runId: string;
  regradeOf?: string;
  summary: { reused?: { calls: number } };
  results: {
    name: string;
    status: string;
    previous?: { status: string; score: number | null; flippedCriteria?: string[] };
    candidate: { source: string };
  }[];
}

describe("regrade", () => {
  it(
    "grades the stored candidates again: no generation call, the flips first and as counted by hand, exit as against a baseline",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      // The edited rubric asks for units: only "4 apples." has them.
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) => {
          if (!isJudgeRequest(request))
            return { text: `4, said claude to ${agentPrompt(request)}` };
          const units = request.system.includes("with its unit");
          const ok = !units || candidateOf(request).includes("apples");
          return { verdict: { reasoning: ok ? "right" : "no unit", score: ok ? 0.9 : 0.2 } };
        },
      });
      const local = await startFakeOpenAIApi({
        respond: (request) =>
          isChatJudgeRequest(request)
            ? { status: 500 }
            : { content: `4, said qwen to ${chatAgentPrompt(request)}` },
      });
      onTestFinished(() => local.close());
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("suite.yaml", suite(local.url, "Gives the right number."));
      const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
      expect(first.code, first.stderr).toBe(0);
      const source = JSON.parse(first.stdout) as Json;
      const generations = () =>
        judge.api.requests.filter((r) => !isJudgeRequest(r)).length + local.requests.length;
      expect(generations()).toBe(6);

      // The same suite again: every verdict comes from the judge cache, nothing is asked.
      const asked = judge.api.requests.length;
      const same = await ws.cli(["regrade", source.runId, "--reporter", "json"], env);
      expect(same.code, same.stderr).toBe(0);
      expect(judge.api.requests.length).toBe(asked);
      expect((JSON.parse(same.stdout) as Json).summary.reused?.calls).toBe(7);

      // An edited rubric: the six generated answers lack a unit, the fixed one has it. The fixed
      // response was edited too, but a regrade grades what the run graded ("4 apples.").
      await ws.write(
        "edited.yaml",
        suite(local.url, "Gives the right number with its unit.", "4."),
      );
      const edited = await ws.cli(
        ["regrade", source.runId, "--config", "edited.yaml", "--reporter", "json"],
        env,
      );
      expect(edited.code, edited.stderr).toBe(1);
      expect(edited.stderr).toContain("no generation or agent call");
      expect(generations()).toBe(6);
      const report = JSON.parse(edited.stdout) as Json;
      expect(report.regradeOf).toBe(source.runId);
      expect(report.runId).not.toBe(source.runId);
      // By hand: the six arithmetic cells passed and now fail; the fixed eval passes as before.
      const flips = report.results.slice(0, 6);
      expect(flips.every((r) => r.status === "failed" && r.previous?.status === "passed")).toBe(
        true,
      );
      expect(report.results[6]).toMatchObject({
        name: "fixed",
        status: "passed",
        previous: { status: "passed" },
      });
      expect(report.results.filter((r) => r.candidate.source === "generated")).toHaveLength(6);
      // Every reporter shows the previous verdict beside the new one.
      for (const name of REPORTER_NAMES) {
        const text = REPORTERS[name].render(JSON.parse(edited.stdout) as Report, { color: false });
        const shown =
          name === "json" || name === "ndjson"
            ? /"previous"/
            : name === "csv"
              ? /,previous,[\s\S]*,passed 0\.90,/
              : /previous(ly)?[^a-z0-9]*(<\/dt><dd>)?passed 0\.90/i;
        expect(text, name).toMatch(shown);
      }
      const stored = await database.prisma.run.findUnique({ where: { id: report.runId } });
      expect(stored?.config).toMatchObject({ regradeOf: source.runId });
      // Linked in its own column, and `report` of it reads the previous verdicts from the source's results.
      expect(stored?.regradeOf).toBe(source.runId);
      const again = await ws.cli(["report", report.runId, "--reporter", "json"], env);
      const reported = JSON.parse(again.stdout) as Json;
      expect(reported.regradeOf).toBe(source.runId);
      expect(reported.results.map((r) => [r.name, r.status, r.previous])).toEqual(
        report.results.map((r) => [r.name, r.status, r.previous]),
      );

      // Another judge on the run's own suite text.
      const other = await ws.cli(
        ["regrade", source.runId, "--judge", "claude-haiku-4-5", "--reporter", "json"],
        env,
      );
      expect(other.code, other.stderr).toBe(0);
      const judged = judge.api.requests.slice(-7);
      expect(judged.every((r) => isJudgeRequest(r) && r.body.model === "claude-haiku-4-5")).toBe(
        true,
      );
      expect(generations()).toBe(6);
    },
  );

  it(
    "regrades only the results that have a stored candidate, and names the others",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) =>
          isJudgeRequest(request)
            ? { verdict: { reasoning: "right", score: 0.9 } }
            : { text: `4, said claude to ${agentPrompt(request)}` },
      });
      // The local model refuses one prompt: that cell never had a candidate.
      const local = await startFakeOpenAIApi({
        respond: (request) =>
          chatAgentPrompt(request).includes("8 / 2")
            ? { status: 400, body: { error: { type: "invalid_request_error", message: "no" } } }
            : { content: `4, said qwen to ${chatAgentPrompt(request)}` },
      });
      onTestFinished(() => local.close());
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("suite.yaml", suite(local.url, "Gives the right number."));
      const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
      const source = JSON.parse(first.stdout) as Json;
      const failed = source.results.filter((r) => r.status !== "passed");
      expect(failed.map((r) => r.name)).toEqual(["arithmetic [agent=local:qwen3-8b, prompt=#2]"]);

      const again = await ws.cli(["regrade", source.runId, "--reporter", "json"], env);
      expect(again.stderr).toContain(
        `Regrading 6 of 7 results of run ${source.runId}: no generation or agent call`,
      );
      expect(again.stderr).toContain(`No stored candidate (not regraded): ${failed[0]!.name} (`);
      const report = JSON.parse(again.stdout) as Json;
      expect(report.results.map((r) => r.name)).not.toContain(failed[0]!.name);
      expect(report.results).toHaveLength(6);

      // A mistyped judge would defer every cell and pass: a usage error, no run stored.
      const typo = await ws.cli(["regrade", source.runId, "--judge", "locla:qwen3-8b"], env);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(
        'error: --judge: unknown provider "locla" in model "locla:qwen3-8b" (did you mean "local"?)',
      );
    },
  );
  it(
    "counts and orders a criterion's flip under a verdict that held, as the flips page does",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      // "accurate" scores 0.9 and "concise" 0.6: every result passes at 0.75.
      const judge = await startFakeJudge(onTestFinished, {
        respond: (request) => ({
          verdict: { reasoning: "ok", score: request.user.includes("concise") ? 0.6 : 0.9 },
        }),
      });
      const graded = (name: string, edit: { concise: string; threshold: string }) => [
        `  - name: ${name}`,
        `    response: "The answer of ${name}."`,
        "    rubric:",
        `      threshold: ${edit.threshold}`,
        "      criteria:",
        "        - { name: accurate, description: States the change. }",
        `        - { name: concise, description: No filler., threshold: ${edit.concise} }`,
      ];
      const text = (concise: string) =>
        yaml(
          "judge: { model: claude-sonnet-4-6 }",
          "evals:",
          "  - name: same",
          '    response: "Unchanged."',
          '    rubric: "Says something."',
          ...graded("a", { concise: concise, threshold: "0.5" }),
          ...graded("b", { concise: concise, threshold: "0.5" }),
          ...graded("c", { concise: concise, threshold: concise === "0.5" ? "0.5" : "0.8" }),
        );
      const env = { ...judge.env, DATABASE_URL: database.url };
      await ws.write("suite.yaml", text("0.5"));
      const first = await ws.cli(["eval", "--config", "suite.yaml", "--reporter", "json"], env);
      expect(first.code, first.stderr).toBe(0);
      const source = JSON.parse(first.stdout) as Json;
      // "concise" now needs 0.7: a and b still pass with it failed; c's bar is raised and it fails.
      await ws.write("edited.yaml", text("0.7"));
      const edited = await ws.cli(
        ["regrade", source.runId, "--config", "edited.yaml", "--reporter", "json"],
        env,
      );
      expect(edited.code, edited.stderr).toBe(1);
      const report = JSON.parse(edited.stdout) as Json;
      const flipsPage = await createRegradeViews(database.prisma).flipCounts({
        runId: report.runId,
      });
      expect(flipsPage).toEqual({
        nowFail: 1,
        nowPass: 0,
        criteria: 2,
        notGraded: 0,
        moved: 0,
        unchanged: 1,
      });
      expect(edited.stderr).toContain(
        `Against run ${source.runId}: 3 flips: 1 now fails, 2 with a criterion flipped; 1 unchanged`,
      );
      // The flips page's order: the verdict's flip, then the criteria's, then the rest.
      const order = (json: Json) => json.results.map((r) => [r.name, r.previous]);
      expect(order(report)).toEqual([
        ["c", { score: 0.75, status: "passed", flippedCriteria: ["concise"] }],
        ["a", { score: 0.75, status: "passed", flippedCriteria: ["concise"] }],
        ["b", { score: 0.75, status: "passed", flippedCriteria: ["concise"] }],
        ["same", { score: 0.9, status: "passed" }],
      ]);
      const again = await ws.cli(["report", report.runId, "--reporter", "json"], env);
      expect(order(JSON.parse(again.stdout) as Json)).toEqual(order(report));
    },
  );
});
