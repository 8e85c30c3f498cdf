import { expect, test } from "@playwright/test";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { agentPrompt, isJudgeRequest } from "../support/agent-script";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { startFakeOpenAIApi } from "../support/fake-openai-api";
import { chatAgentPrompt } from "../support/openai-agent-script";
import { runCli } from "../support/run-cli";

// The run page of examples/model-matrix.yaml (issue 19): candidates generated
// by claude-haiku-4-5 and openai:gpt-4.1-mini, stored by the real CLI against
// the stand-ins of both vendors. The heatmap's rows are the candidate models,
// not the judge, and a cell lists that agent's results only.

const candidateOf = (request: { user: string }) =>
  /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.user)?.[1] ?? "";

let runId: string;
let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-generated-"));
  // The example, and one eval more whose matrix also varies the judge model: the agreement view's.
  const example = await readFile(path.resolve("examples/model-matrix.yaml"), "utf8");
  await writeFile(
    path.join(dir, "model-matrix.yaml"),
    `${example}
  - name: judged twice
    rubric: "Explains it plainly."
    matrix:
      agents: [claude-haiku-4-5, openai:gpt-4.1-mini]
      models: [claude-sonnet-4-6, claude-opus-4-1]
      prompts: ["Why is the sky blue?"]
`,
  );
  // claude-haiku-4-5 answers plainly and passes; gpt-4.1-mini answers in jargon and fails.
  const anthropic = await startFakeMessagesApi({
    respond: (request) =>
      isJudgeRequest(request)
        ? {
            verdict: {
              reasoning: "Judged on its plainness.",
              // claude-opus-4-1 is the harsher judge: the two judges disagree on the plain answers.
              score: !candidateOf(request).startsWith("Plainly")
                ? 0.2
                : request.body.model === "claude-opus-4-1"
                  ? 0.3
                  : 0.95,
            },
          }
        : { text: `Plainly: ${agentPrompt(request).slice(0, 40)}` },
  });
  const openai = await startFakeOpenAIApi({
    respond: (request) => ({ content: `In jargon: ${chatAgentPrompt(request).slice(0, 40)}` }),
  });
  try {
    const run = await runCli(
      ["eval", "--config", "model-matrix.yaml", "--store", "--no-cache", "--reporter", "json"],
      {
        cwd: dir,
        timeoutMs: 120_000,
        env: {
          ANTHROPIC_API_KEY: "sk-ant-test",
          ANTHROPIC_BASE_URL: anthropic.url,
          OPENAI_API_KEY: "sk-test",
          OPENAI_BASE_URL: openai.url,
          RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
        },
      },
    );
    const id = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
    runId = id;
  } finally {
    await anthropic.close();
    await openai.close();
  }
});
test.afterAll(async () => rm(dir, { recursive: true, force: true }));

test("the heatmap of agents × prompts names the candidate models, and a cell lists one agent's results", async ({
  page,
}) => {
  await page.goto(`/runs/${runId}`);
  const heatmap = page.getByTestId("matrix-heatmap");
  await expect(heatmap.locator("thead th").first()).toHaveText("Candidate model \\ prompt or eval");
  // The columns are what varies: the three prompts, and the dataset's eval over all its items.
  await expect(heatmap.getByTestId("matrix-column")).toHaveText([
    "prompt #1",
    "prompt #2",
    "prompt #3",
    "capital cities",
  ]);
  await expect(heatmap).not.toContainText("(one prompt)");
  await expect(heatmap.locator("tbody th")).toHaveText([
    // In the suite's order: the example's eval first (its agents, judged as configured), then
    // "judged twice": each agent under each judge model, as its matrix lists them.
    "claude-haiku-4-5",
    "openai:gpt-4.1-mini",
    "claude-haiku-4-5 (judged by claude-sonnet-4-6)",
    "claude-haiku-4-5 (judged by claude-opus-4-1)",
    "openai:gpt-4.1-mini (judged by claude-sonnet-4-6)",
    "openai:gpt-4.1-mini (judged by claude-opus-4-1)",
  ]);
  await expect(heatmap).not.toContainText("(judges as configured)");
  await expect(page.getByTestId("matrix-bars")).toContainText("per candidate model × prompt cell");
  await heatmap.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/generated-heatmap.png", fullPage: true });

  // claude-haiku-4-5's cells passed, gpt-4.1-mini's failed: the rows are the agents, not pooled.
  const haiku = heatmap.locator(
    '[data-testid=matrix-cell][data-agent="claude-haiku-4-5"][data-model=""]',
  );
  const gpt = heatmap.locator(
    '[data-testid=matrix-cell][data-agent="openai:gpt-4.1-mini"][data-model=""]',
  );
  await expect(haiku).toHaveCount(4); // three prompts, and the dataset's items
  await expect(gpt).toHaveCount(4);
  for (const tone of await haiku.evaluateAll((cells) => cells.map((c) => c.dataset.tone)))
    expect(tone).toBe("pass");
  for (const tone of await gpt.evaluateAll((cells) => cells.map((c) => c.dataset.tone)))
    expect(tone).toBe("fail");

  await gpt.and(page.locator('[data-prompt="2"]')).click();
  await expect(page).toHaveURL(/agent=openai%3Agpt-4.1-mini&prompt=2/);
  await expect(page.getByTestId("cell-filter")).toContainText("openai:gpt-4.1-mini · prompt #2");
  await expect(page.getByTestId("result-row")).toHaveCount(1);
  await expect(page.getByTestId("result-row")).toContainText("gpt-4.1-mini");

  // The dataset's column lists that agent's results of every item of it.
  await page.goto(`/runs/${runId}`);
  await gpt.and(page.locator('[data-eval="capital cities"]')).click();
  await expect(page.getByTestId("cell-filter")).toContainText(
    "openai:gpt-4.1-mini · capital cities",
  );
  await expect(page.getByTestId("result-row")).toHaveCount(2);
  await expect(page.getByTestId("result-row").first()).toContainText("capital cities [item=");
});

test("the agreement view of a matrix of agents × judge models names each candidate by its agent", async ({
  page,
}) => {
  await page.goto(`/runs/${runId}/agreement`);
  const disagreements = page.getByTestId("disagreement-result");
  await expect(disagreements).toHaveCount(1);
  await expect(disagreements).toContainText("judged twice");
  await expect(disagreements).toContainText("agent=claude-haiku-4-5");
  await expect(page.getByTestId("disagreement-verdict")).toHaveCount(2);
  await expect(page.getByTestId("verdict-reasoning")).toHaveText([
    "Judged on its plainness.",
    "Judged on its plainness.",
  ]);
  await page.screenshot({ path: "test-results/generated-agreement.png", fullPage: true });
});
