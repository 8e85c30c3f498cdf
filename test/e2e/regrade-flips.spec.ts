import { expect, test } from "@playwright/test";
import { agentPrompt, isJudgeRequest, judgedCandidate } from "../support/agent-script";
import { startFakeMessagesApi, type FakeMessagesApi } from "../support/fake-messages-api";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../support/fake-openai-api";
import { chatAgentPrompt } from "../support/openai-agent-script";
import { spawnDashboard, type SpawnedDashboard } from "./spawn-dashboard";

// The evaluation loop in the dashboard (issue 19), against the stand-ins of
// both vendors' APIs: a matrix of an Anthropic model and an OpenAI-compatible
// model over three prompts is generated and graded (the editor's Run), shown
// in the heatmap; the rubric is edited and saved as a new version in the
// editor, the run is re-graded with that version (Re-grade with…), and the
// flips page shows what changed, as counted by hand, with no generation call.

const PROMPTS = ["Why is the sky blue?", "Why do leaves fall?", "What is 2 + 2?"];
const suite = (rubric: string) =>
  [
    "judge: { model: claude-sonnet-4-6 }",
    "evals:",
    "  - name: explain",
    `    rubric: "${rubric}"`,
    "    matrix:",
    "      agents: [claude-haiku-4-5, openai:gpt-4.1-mini]",
    `      prompts: ${JSON.stringify(PROMPTS)}`,
    "",
  ].join("\n");
const BEFORE = "Answers the question.";
const AFTER = "Answers the question plainly, with no jargon.";

// The judge's script. Before the edit: every answer passes but claude-haiku-4-5's to "2 + 2"
// (0.4). After: a plain answer passes (0.9, as before), an answer in jargon fails (0.2).
// By hand: gpt-4.1-mini's 3 answers now fail, haiku's "2 + 2" now passes, haiku's other 2
// keep 0.9: 4 flips (3 now fail, 1 now passes), 2 unchanged.
const verdictOf = (system: string, candidate: string) => {
  const plain = candidate.startsWith("Plainly");
  if (system.includes("plainly"))
    return { reasoning: plain ? "Plain words." : "Jargon throughout.", score: plain ? 0.9 : 0.2 };
  return plain && candidate.includes("2 + 2")
    ? { reasoning: "Does not show the sum.", score: 0.4 }
    : { reasoning: "Answers it.", score: 0.9 };
};

let anthropic: FakeMessagesApi;
let openai: FakeOpenAIApi;
let dashboard: SpawnedDashboard;
const generations = () =>
  anthropic.requests.filter((r) => !isJudgeRequest(r)).length + openai.requests.length;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  anthropic = await startFakeMessagesApi({
    respond: (request) =>
      isJudgeRequest(request)
        ? { verdict: verdictOf(request.system, judgedCandidate(request)) }
        : { text: `Plainly: ${agentPrompt(request)}` },
  });
  openai = await startFakeOpenAIApi({
    respond: (request) => ({ content: `In jargon: ${chatAgentPrompt(request)}` }),
  });
  dashboard = await spawnDashboard({
    host: "127.0.0.1",
    env: {
      ANTHROPIC_API_KEY: "sk-ant-test-0123456789",
      ANTHROPIC_BASE_URL: anthropic.url,
      OPENAI_API_KEY: "sk-test-0123456789",
      OPENAI_BASE_URL: openai.url,
    },
  });
});
test.afterAll(async () => {
  await dashboard?.stop();
  await anthropic?.close();
  await openai?.close();
});

test("generate, grade, heatmap, edit the rubric, Re-grade with… the new version, and the flips as counted by hand", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const created = await page.request.post(`${dashboard.url}/api/suites`, {
    data: { name: "model matrix", yaml: suite(BEFORE) },
  });
  expect(created.status()).toBe(201);
  const { id: suiteId } = (await created.json()) as { id: string };

  // Generated and graded by the dashboard's worker.
  await page.goto(`${dashboard.url}/suites/${suiteId}`);
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}/, { timeout: 15_000 });
  const sourceId = /\/runs\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const progress = page.getByTestId("run-progress");
  await expect(progress).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  expect(generations()).toBe(6);
  expect(openai.requests).toHaveLength(3);

  // The heatmap: a row per candidate model.
  await page.reload();
  const heatmap = page.getByTestId("matrix-heatmap");
  await expect(heatmap.locator("tbody th")).toHaveText(["claude-haiku-4-5", "openai:gpt-4.1-mini"]);
  const tones = (agent: string) =>
    heatmap
      .locator(`[data-testid=matrix-cell][data-agent="${agent}"]`)
      .evaluateAll((cells) => cells.map((c) => c.dataset.tone));
  expect(await tones("claude-haiku-4-5")).toEqual(["pass", "pass", "fail"]);
  expect(await tones("openai:gpt-4.1-mini")).toEqual(["pass", "pass", "pass"]);

  // The rubric edited and saved as a new version, in the editor.
  await page.goto(`${dashboard.url}/suites/${suiteId}`);
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined);
  const versions = page.getByTestId("versions-list").locator("li");
  const before = await versions.count();
  await page.evaluate((t) => globalThis.__rubricStudioEditor!.setValue(t), suite(AFTER));
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(versions).toHaveCount(before + 1);

  // Re-grade with… that version (the suite's current one), from the source run's page.
  await page.goto(`${dashboard.url}/runs/${sourceId}`);
  const form = page.getByTestId("regrade-form");
  await expect(form.getByTestId("regrade-version").locator("option:checked")).toContainText(
    "(current)",
  );
  await form.getByTestId("regrade-submit").click();
  // The new run's page (its live progress may end as #results).
  await expect(page).not.toHaveURL(new RegExp(`/runs/${sourceId}`), { timeout: 15_000 });
  const regradeId = /\/runs\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("regrade-of")).toContainText(
    `Re-grade of run ${sourceId.slice(0, 8)}`,
  );
  // The header names the judge the regrade used.
  await expect(page.getByTestId("regrade-judges")).toHaveText("claude-sonnet-4-6");
  // No generation call: the stored candidates were graded again.
  expect(generations()).toBe(6);
  expect(openai.requests).toHaveLength(3);

  await page.getByTestId("flips-link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${regradeId}/flips$`));
  await expect(page.getByTestId("flip-counts")).toHaveText(
    "4 flips: 3 now fail, 1 now passes; 2 unchanged",
  );
  const flips = page.getByTestId("flip");
  await expect(flips).toHaveCount(4);
  // The flips first; each with both verdicts and the candidate once.
  await expect(flips.locator("[data-testid=flip-change]")).toHaveText([
    "passed 0.90 → failed 0.20",
    "passed 0.90 → failed 0.20",
    "passed 0.90 → failed 0.20",
    "failed 0.40 → passed 0.90",
  ]);
  const last = flips.nth(3);
  await expect(last.getByTestId("candidate")).toHaveCount(1);
  await expect(last.getByTestId("candidate")).toHaveText("Plainly: What is 2 + 2?");
  await expect(last.getByTestId("flip-verdict")).toHaveCount(2);
  await expect(last.getByTestId("flip-verdict").nth(0)).toContainText("Does not show the sum.");
  await expect(last.getByTestId("flip-verdict").nth(1)).toContainText("Plain words.");
  // Before and now are the two halves of the page, not two narrow cards at its left.
  const [card, whole] = await Promise.all([
    last.getByTestId("flip-verdict").nth(0).boundingBox(),
    last.boundingBox(),
  ]);
  expect(card!.width).toBeGreaterThan(whole!.width * 0.4);
  await page.screenshot({ path: "test-results/regrade-flips.png", fullPage: true });

  // Filtered to one candidate model: its flips only.
  await page.goto(
    `${dashboard.url}/runs/${regradeId}/flips?agent=${encodeURIComponent("claude-haiku-4-5")}`,
  );
  await expect(page.getByTestId("flip-counts")).toHaveText("1 flip: 1 now passes; 2 unchanged");

  // The runs list marks the regrade.
  await page.goto(`${dashboard.url}/runs`);
  await expect(
    page.locator(
      `[data-testid=run-row][data-run-id="${regradeId}"] [data-testid=run-regrade-mark]`,
    ),
  ).toHaveText("re-grade");
  await expect(
    page.locator(`[data-testid=run-row][data-run-id="${sourceId}"] [data-testid=run-regrade-mark]`),
  ).toHaveCount(0);
});
