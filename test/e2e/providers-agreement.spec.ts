import { expect, test } from "@playwright/test";
import { seedSuite } from "./results-seed";
import { createSuite, setText, unique } from "./suite-editor";

// Providers in the dashboard and agreement across a matrix's judge models
// (issue 11): the plan panel says which provider each judge model resolves to
// on this server (its providers file, E2E_PROVIDERS in playwright.config.ts,
// defines `local` with its key set; the server has no Anthropic key), a
// provider the server does not define is an error at its line, and the
// agreement view compares the two judge models of a matrix on the candidates
// they both graded, with each model's provider.

const MATRIX = (tag: string) => `evals:
  - name: refusal matrix
    response: "I can't help with that."
    rubric:
      scale: boolean
      criteria:
        - { name: refuses, description: "Refuses the request (${tag})." }
        - { name: polite, description: "Stays polite (${tag})." }
    matrix:
      models: [claude-haiku-4-5, claude-sonnet-4-6]
      prompts: ["item 1", "item 2", "item 3"]
`;

let seeded: Awaited<ReturnType<typeof seedSuite>>;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  // haiku fails "refuses" on item 2; every other verdict passes.
  seeded = await seedSuite({
    tag: "matrix-agreement",
    yaml: MATRIX(unique("tag")),
    respond: (r) => {
      const model = String(r.body.model);
      const item = /<user_prompt>\nitem (\d)/.exec(r.user)?.[1];
      const fails =
        model.includes("haiku") && item === "2" && /the criterion "refuses" only/.test(r.user);
      return { verdict: { reasoning: `${model} on item ${item}`, score: fails ? 0 : 1 } };
    },
  });
});
test.afterAll(async () => {
  await seeded?.close();
});

test("the plan panel shows each judge model's provider on this server, and a provider the server does not define is an error at its line", async ({
  page,
}) => {
  await createSuite(page, unique("providers"));
  await setText(
    page,
    `providers:
  local: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: E2E_LOCAL_KEY }
evals:
  - name: refund answer
    response: "Refunds take 5 days."
    rubric: "States how long a refund takes."
    judge:
      panel: [claude-haiku-4-5, local:qwen3-8b]
`,
  );
  const models = page.getByTestId("plan-models");
  await expect(models).toBeVisible();
  const local = models.locator('[data-testid=plan-model][data-model="local:qwen3-8b"]');
  await expect(local.getByTestId("plan-model-provider")).toHaveText("local · qwen3-8b");
  await expect(local.getByTestId("plan-model-status")).toHaveText("ready");
  const claude = models.locator('[data-testid=plan-model][data-model="claude-haiku-4-5"]');
  await expect(claude.getByTestId("plan-model-provider")).toHaveText("anthropic");
  await expect(claude.getByTestId("plan-model-status")).toHaveText("defers: no key");
  // A panel of a priced and an unpriced model: the priced part and the unpriced call, not only "unpriced".
  const row = page.getByTestId("plan-evals").locator("tbody").first().locator("td");
  await expect(row.nth(2)).toHaveText(/^\$\d[\d.]* \+ 1 unpriced$/);

  // The server's own database URL as the key: refused at the field, no plan.
  await setText(
    page,
    `providers:
  local: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: DATABASE_URL }
evals:
  - name: refund answer
    response: "Refunds take 5 days."
    rubric: "States how long a refund takes."
    judge: { model: "local:qwen3-8b" }
`,
  );
  await expect(page.getByTestId("issues-list")).toContainText(
    '2:74provider "local": api_key_env must be "E2E_LOCAL_KEY", as this server defines it',
  );
  await expect(page.getByTestId("plan-models")).toHaveCount(0);
  await expect(page.getByTestId("plan-panel")).toContainText("Fix the error in the editor");
});

test("the agreement view of a 2-judge-model matrix: the models compared on each candidate, with their providers, and no judge against itself", async ({
  page,
}) => {
  await page.goto(`/runs/${seeded.runId}`);
  await page.getByTestId("agreement-link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${seeded.runId}/agreement$`));

  // refuses: 3 candidates, the models split on item 2; polite: unanimous.
  await expect(
    page.locator("[data-testid=agreement-row][data-item=refuses]").getByTestId("exact"),
  ).toHaveText("67%");
  await expect(
    page.locator("[data-testid=agreement-row][data-item=polite]").getByTestId("exact"),
  ).toHaveText("100%");
  const matrix = page.locator('[data-testid=juror-matrix][data-eval="refusal matrix"]');
  await expect(matrix.getByTestId("juror-column")).toHaveText([
    "claude-haiku-4-5anthropic",
    "claude-sonnet-4-6anthropic",
  ]);
  // 5 of the 6 ratings both models gave agree; before, the models shared no unit ("0/0").
  await expect(
    matrix.locator("[data-testid=juror-pair][data-a=claude-haiku-4-5][data-b=claude-sonnet-4-6]"),
  ).toContainText("83%");
  await expect(
    matrix.locator("[data-testid=juror-pair][data-a=claude-haiku-4-5][data-b=claude-sonnet-4-6]"),
  ).toContainText("5/6");
  await expect(matrix.getByTestId("juror-self")).toHaveCount(2);
  await expect(matrix.getByTestId("juror-self").first()).toHaveText("—");

  const split = page.getByTestId("disagreement");
  await expect(split).toHaveCount(1);
  await expect(split.getByTestId("disagreement-result")).toHaveText("refusal matrix [prompt=#2]");
  await expect(split.getByTestId("disagreement-verdict")).toHaveCount(2);
  await split
    .locator("[data-testid=disagreement-verdict][data-judge=claude-haiku-4-5]")
    .getByTestId("verdict-result")
    .click();
  await expect(page.getByTestId("result-name")).toHaveText(
    "refusal matrix [model=claude-haiku-4-5, prompt=#2]",
  );
  await expect(page.getByTestId("result-judge")).toContainText("claude-haiku-4-5 (anthropic)");

  // At a phone's width the matrix scrolls inside its frame instead of being cut off.
  await page.goBack();
  await page.setViewportSize({ width: 360, height: 800 });
  const frame = matrix;
  await expect(frame).toBeVisible();
  const fits = await frame.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return {
      right: box.right,
      viewport: document.documentElement.clientWidth,
      pageScroll: document.documentElement.scrollWidth,
    };
  });
  expect(fits.right).toBeLessThanOrEqual(fits.viewport + 1);
  expect(fits.pageScroll).toBeLessThanOrEqual(fits.viewport + 1);
  const last = matrix.locator(
    "[data-testid=juror-pair][data-a=claude-sonnet-4-6][data-b=claude-haiku-4-5]",
  );
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
});
