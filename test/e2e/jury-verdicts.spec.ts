import { expect, test } from "@playwright/test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  startFakeMessagesApi,
  type FakeReply,
  type FakeRequest,
} from "../support/fake-messages-api";
import { runCli } from "../support/run-cli";
import { seedSuite } from "./results-seed";

// A jury of 3 that splits around a required criterion's gate, stored by the
// real CLI against the stand-in judge: the result page shows the criterion's
// combined verdict ("2 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70"), gates that
// agree with it and with the eval, and each juror's reasoning under that
// juror. Before, the criterion read "passed 0.77" beside "required: failed
// the gate" on an eval that passed, with one juror's reasoning under the mean.
// And a run graded with `eval --repeat 3 --store` shows its flip rate per
// criterion on its results' pages.

const JURY_SUITE = `evals:
  - name: jury passes
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change (passes).", required: true }
  - name: jury fails
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change (fails).", required: true }
  - name: jury passes below the mean
    response: "The 2.3.0 release added per-tenant rate limits."
    judge: { jury: { size: 3, consensus: 0.66 } }
    rubric:
      threshold: 0.7
      criteria:
        - { name: accurate, description: "States the correct change (below).", required: true }
`;

/** The jurors' scores per eval, handed out in the order the calls arrive (which juror gets which does not matter). */
const SCORES: Record<string, number[]> = {
  passes: [0.9, 0.9, 0.5],
  fails: [1, 0.65, 0.65],
  below: [0.8, 0.8, 0.4],
};

function juryReply(): (request: FakeRequest) => FakeReply {
  const used: Record<string, number> = {};
  return (request) => {
    const which = /\((passes|fails|below)\)/.exec(request.system)![1]!;
    const n = (used[which] = (used[which] ?? 0) + 1);
    const score = SCORES[which]![(n - 1) % 3]!;
    return {
      verdict: { reasoning: `Juror call ${n} gives a score of ${score.toFixed(2)}.`, score },
    };
  };
}

const REPEAT_SUITE = `evals:
  - name: flaky summary
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric:
      criteria:
        - { name: accurate, description: "States the correct change (flaky)." }
        - { name: concise, description: "Two sentences at most (steady)." }
`;

/** \`eval --repeat 3 --store\` through the real CLI: "accurate" passes in the first repeat only, "concise" always. */
async function storeRepeatedRun(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-repeat-"));
  let accurate = 0;
  const api = await startFakeMessagesApi({
    respond: (request) => {
      // The system prompt lists both criteria; the last turn names the one graded.
      const flaky = request.user.includes('the criterion "accurate" only');
      const score = flaky ? (++accurate === 1 ? 0.9 : 0.3) : 0.9;
      return { verdict: { reasoning: `Scored ${score}.`, score } };
    },
  });
  try {
    await writeFile(path.join(dir, "repeat.yaml"), REPEAT_SUITE);
    const run = await runCli(
      [
        "eval",
        "--config",
        "repeat.yaml",
        "--repeat",
        "3",
        "--store",
        "--concurrency",
        "1",
        "--reporter",
        "json",
      ],
      {
        cwd: dir,
        timeoutMs: 120_000,
        env: {
          ANTHROPIC_API_KEY: "sk-ant-test",
          ANTHROPIC_BASE_URL: api.url,
          RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
        },
      },
    );
    const id = /Stored run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
    return id;
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const CALIBRATION_FILE = "jury-calibration.yaml";
const CALIBRATION_SUITE = `evals:
  - name: refund answer
    response: "Yes, within 30 days."
    judge: { jury: { size: 3 } }
    rubric:
      criteria:
        - name: cites the policy
          description: "Names the refund window."
          examples:
            - { response: "Refunds within 30 days of purchase.", score: 1.0 }
`;

/** \`calibrate --store\` of a juried anchor through the real CLI: the jurors judge it 0.90, 0.60 and 0.30 (in the order the calls arrive). */
async function storeJuriedCalibration(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-jury-cal-"));
  let calls = 0;
  const api = await startFakeMessagesApi({
    respond: () => {
      const score = [0.9, 0.6, 0.3][calls++ % 3]!;
      return { verdict: { reasoning: `This juror judges ${score.toFixed(2)}.`, score } };
    },
  });
  try {
    await writeFile(path.join(dir, CALIBRATION_FILE), CALIBRATION_SUITE);
    const run = await runCli(["calibrate", "--config", CALIBRATION_FILE, "--store"], {
      cwd: dir,
      timeoutMs: 120_000,
      env: {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: api.url,
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
      },
    });
    if (!/Stored calibration run [0-9a-f-]{36}/.test(run.stderr))
      throw new Error(`the CLI stored no calibration (exit ${run.code}):\n${run.stderr}`);
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

let seeded: Awaited<ReturnType<typeof seedSuite>>;
let repeatedRunId: string;
test.beforeAll(async () => {
  test.setTimeout(240_000);
  seeded = await seedSuite({ tag: "jury-verdicts", yaml: JURY_SUITE, respond: juryReply() });
  repeatedRunId = await storeRepeatedRun();
  await storeJuriedCalibration();
});
test.afterAll(async () => {
  await seeded?.close();
});

const resultPage = (name: string) => `/runs/${seeded.runId}/results/${encodeURIComponent(name)}`;

test("a jury that passes 2 of 3: the criterion's headline, its gate and the eval agree; each juror's reasoning is under the juror", async ({
  page,
}) => {
  await page.goto(resultPage("jury passes"));
  const criterion = page.getByTestId("criterion");
  await expect(criterion).toHaveCount(1);
  await expect(criterion.getByTestId("criterion-headline")).toContainText(
    "2 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70",
  );
  await expect(criterion.locator("[data-status]").first()).toHaveAttribute("data-status", "passed");
  await expect(criterion).toContainText("required: held by the jurors' votes");
  await expect(criterion).not.toContainText("failed the gate");
  // The criterion's own gates line is absent; only the third juror's verdict shows its gate.
  await expect(criterion.getByTestId("criterion-gates")).toHaveCount(0);
  // No one juror's reasoning stands under the combined score.
  await expect(criterion.getByTestId("criterion-reasoning")).toHaveCount(0);

  const verdicts = criterion.getByTestId("verdict");
  await expect(verdicts).toHaveCount(3);
  const passed: string[] = [];
  for (let i = 0; i < 3; i++) {
    const verdict = verdicts.nth(i);
    const reasoning = (await verdict.getByTestId("juror-reasoning").textContent()) ?? "";
    const score = /a score of (\d\.\d\d)/.exec(reasoning)?.[1];
    expect(score, reasoning).toBeDefined();
    // The juror's own score sits beside its own reasoning.
    await expect(verdict.locator("div").first()).toContainText(score!);
    const own = score === "0.50" ? "failed" : "passed";
    passed.push(own);
    await expect(verdict.locator("[data-status]")).toHaveAttribute("data-status", own);
    if (score === "0.50")
      await expect(verdict).toContainText("Gates: required criterion below its threshold");
  }
  expect(passed.sort()).toEqual(["failed", "passed", "passed"]);
  await expect(page.locator("p > [data-status]").first()).toHaveAttribute("data-status", "passed");
  await expect(page.getByTestId("result-reason")).toHaveText(
    "jury: 2 of 3 jurors passed the whole rubric, 2 needed (consensus 0.66); mean score 0.77",
  );
});

test("a jury that passes 1 of 3 with a mean above the threshold: the criterion failed its gate, and so did the eval", async ({
  page,
}) => {
  await page.goto(resultPage("jury fails"));
  const criterion = page.getByTestId("criterion");
  await expect(criterion.getByTestId("criterion-headline")).toContainText(
    "1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70",
  );
  await expect(criterion).toContainText("required: failed the gate");
  await expect(criterion.getByTestId("criterion-gates")).toHaveText(
    "Gates: required criterion below its threshold",
  );
  await expect(criterion.locator("[data-status]").first()).toHaveAttribute("data-status", "failed");
  await expect(page.locator("p > [data-status]").first()).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("result-reason")).toHaveText(
    'required criterion "accurate" failed: 1 of 3 jurors passed it, 2 needed; their mean 0.77 reaches 0.70',
  );
});

test("a criterion 2 of 3 jurors passed with a mean below the threshold says which rule decided, not a bare pass beside 0.67 / 0.70", async ({
  page,
}) => {
  await page.goto(resultPage("jury passes below the mean"));
  const criterion = page.getByTestId("criterion");
  await expect(criterion.locator("[data-status]").first()).toHaveAttribute("data-status", "passed");
  await expect(criterion.getByTestId("criterion-headline")).toHaveText(
    "2 of 3 jurors passed it, 2 needed; their mean 0.67 is below 0.70",
  );
  await expect(criterion).toContainText("required: held by the jurors' votes");
  await expect(page.getByTestId("result-reason")).toHaveText(
    "jury: 2 of 3 jurors passed the whole rubric, 2 needed (consensus 0.66); mean score 0.67",
  );
});

test("the runs list shows no markdown backticks", async ({ page }) => {
  await page.goto("/runs");
  await expect(page.locator("body")).toContainText("eval --store");
  expect(await page.locator("body").innerText()).not.toContain("`");
});

test("a run graded 3 times shows, on its result page, the flip rate per criterion", async ({
  page,
}) => {
  await page.goto(
    `/runs/${repeatedRunId}/results/${encodeURIComponent("flaky summary::repeat=1")}`,
  );
  const section = page.getByTestId("flip-section");
  await expect(section).toContainText("Flip rate over 3 repeats");
  await expect(
    section.locator("[data-testid=flip-rate][data-item=accurate] [data-testid=flip-rate-value]"),
  ).toHaveText("100%");
  await expect(
    section.locator("[data-testid=flip-rate][data-item=concise] [data-testid=flip-rate-value]"),
  ).toHaveText("0%");
});

test("the calibration view gives a juried anchor's mean, then each juror's own score and reasoning", async ({
  page,
}) => {
  await page.goto("/suites");
  await page
    .getByTestId("suite-row")
    .filter({ hasText: CALIBRATION_FILE })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: CALIBRATION_FILE })).toBeVisible();
  await page.goto((await page.getByRole("link", { name: "Calibration" }).getAttribute("href"))!);
  await expect(
    page.getByRole("heading", { level: 1, name: `Calibration of ${CALIBRATION_FILE}` }),
  ).toBeVisible({ timeout: 30_000 });
  const row = page.locator("[data-testid=calibration-items] tbody tr");
  await expect(row).toHaveCount(1);
  await expect(row.locator("td").nth(3)).toHaveText("0.60");
  await expect(row.getByTestId("judge-readings-summary")).toHaveText("mean of 3 jurors: 0.60");
  const readings = row.getByTestId("judge-reading");
  await expect(readings).toHaveCount(3);
  const seen: string[] = [];
  for (let i = 0; i < 3; i++) {
    const text = (await readings.nth(i).textContent()) ?? "";
    // "claude-… #k 0.90: This juror judges 0.90.": the score beside the reasoning is that juror's own.
    const match = /#\d (\d\.\d\d): This juror judges (\d\.\d\d)\./.exec(text);
    expect(match, text).not.toBeNull();
    expect(match![1]).toBe(match![2]);
    seen.push(match![1]!);
  }
  expect(seen.sort()).toEqual(["0.30", "0.60", "0.90"]);
});
