import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { runCli } from "../support/run-cli";
import { setText } from "./suite-editor";

// The editor's "Flips against run…" (issue 19): a suite with a stored run
// (stored by the real CLI into the keyed dashboard's database, a matrix of two
// judge models, so four cells), a criterion edited in the editor, the preview
// of what flips (paid only for the edited criterion, at the dashboard's
// stand-in judge), then Save.

const KEYED = process.env.E2E_KEYED_URL!;
// What the keyed dashboard's stand-in judge has answered so far (anchor-judge-main.ts).
const judgeCalls = () => Number(readFileSync(process.env.E2E_JUDGE_CALLS!, "utf8") || "0");

const suite = (window: string) => `evals:
  - name: refund window
    prompt: "How long do refunds take?"
    response: "Refunds take about a week (flips e2e)."
    rubric:
      threshold: 0.7
      criteria:
        - { name: window, description: "${window}" }
    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }
  - name: tone
    prompt: "How long do refunds take?"
    response: "Refunds take about a week (flips e2e)."
    rubric:
      threshold: 0.7
      criteria:
        - { name: polite, description: "Is polite." }
    matrix: { models: [claude-sonnet-4-6, claude-haiku-4-5] }
`;

/** `eval` through the real CLI into the keyed dashboard's database, every verdict 0.90: the stored run's id. */
async function storeRun(file: string, yaml: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-flips-"));
  const api = await startFakeMessagesApi({
    respond: () => ({ verdict: { reasoning: "A week is stated.", score: 0.9 } }),
  });
  try {
    await writeFile(path.join(dir, file), yaml);
    const run = await runCli(["eval", "--config", file, "--store", "--reporter", "json"], {
      cwd: dir,
      timeoutMs: 120_000,
      env: {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: api.url,
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_KEYED_DATA_DIR,
      },
    });
    const id = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
    return id;
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test("edit a criterion, preview which stored verdicts flip, then save", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const file = `flips-${Date.now().toString(36)}.yaml`;
  const runId = await storeRun(file, suite("States how long a refund takes."));
  const suites = (await (await page.request.get(`${KEYED}/api/suites`)).json()) as {
    id: string;
    name: string;
  }[];
  const suiteId = suites.find((s) => s.name === file)!.id;
  await page.goto(`${KEYED}/suites/${suiteId}`);
  await page.waitForFunction(() => globalThis.__rubricStudioEditor !== undefined);

  const panel = page.getByTestId("flips-panel");
  // The latest finished run is picked; with the saved text every verdict is in the judge cache.
  await expect(panel.getByTestId("flips-run")).toHaveValue(runId);
  await expect(panel.getByTestId("flips-plan")).toHaveText(
    "Compares 4 results: no judge call, every verdict from the judge cache, no cost.",
  );

  // The edit: the stand-in judge knows this candidate not, and answers 0.50: below the 0.7 threshold.
  await setText(page, suite("States the refund window in business days."));
  await expect(panel.getByTestId("flips-plan")).toContainText(
    /^Compares 4 results: 2 judge calls \(~\$[0-9.]+\); 2 verdicts from the judge cache\.$/,
  );
  const before = judgeCalls();
  await page.keyboard.press("Control+Shift+Enter");
  await expect(panel.getByTestId("flips-summary")).toHaveText("2 flips: 2 now fail; 2 unchanged");
  // The stand-in writes its count every 50 ms, which may be after the page has shown the answers;
  // the checks further on (after Save, and after a preview from the cache) say no call was added.
  await expect.poll(() => judgeCalls() - before, { timeout: 5_000 }).toBe(2);
  await expect(panel.getByTestId("flips-against")).toContainText(
    `Against run ${runId.slice(0, 8)} (suite v1,`,
  );
  const rows = panel.getByTestId("flip-row");
  await expect(rows).toHaveCount(2);
  for (const model of ["claude-sonnet-4-6", "claude-haiku-4-5"])
    await expect(rows.filter({ hasText: `judge ${model}` })).toHaveCount(1);
  await expect(rows.first().getByTestId("flip-change")).toHaveText("passed 0.90 → failed 0.50");
  await expect(rows.first()).toContainText("window (0.50): Unknown candidate.");
  await expect(rows.first().getByTestId("flip-criteria")).toHaveText("criterion window flipped");
  const href = await rows.first().getByRole("link", { name: "Stored result" }).getAttribute("href");
  expect(href).toMatch(new RegExp(`^/runs/${runId}/results/refund%20window`));
  await page.screenshot({ path: testInfo.outputPath("flips-page.png") });
  await panel.screenshot({ path: testInfo.outputPath("flips-panel.png") });

  // Nothing was stored by the preview; Save keeps the text as version 2 and asks the judge nothing.
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as a new version.")).toBeVisible();
  expect(judgeCalls() - before).toBe(2);

  // Back to the run's own wording: nothing flips, and every verdict comes from the judge cache.
  await setText(page, suite("States how long a refund takes."));
  await expect(panel.getByTestId("flips-plan")).toHaveText(
    "Compares 4 results: no judge call, every verdict from the judge cache, no cost.",
  );
  await panel.getByRole("button", { name: "Preview flips" }).click();
  await expect(panel.getByTestId("flips-empty")).toHaveText(
    "Nothing flips: every one of the 4 results keeps its verdict, and each of its criteria keeps its own.",
  );
  await expect(panel.getByTestId("flips-footer")).toContainText(
    "No judge call: every verdict came from the judge cache",
  );
  expect(judgeCalls() - before).toBe(2);

  // The stored result the row links to opens.
  await page.goto(`${KEYED}${href}`);
  await expect(page.getByTestId("result-score")).toBeVisible();
});
