import { expect, test } from "@playwright/test";
import { seedSuite } from "./results-seed";

// A result answered from the judge cache reads "Judge calls 0 · Cost $0.00 ·
// Tokens 0": its page says that its verdicts were reused, and which stored run
// paid for them. Seeded by the real CLI (`eval --store`) twice on one suite.

const YAML = `evals:
  - name: cached answer
    response: "Refunds within 30 days."
    rubric: "Names the refund window (reused-verdicts)."
`;

test("a result whose verdicts came from the judge cache says so, and names the run that paid for them", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const respond = () => ({ verdict: { reasoning: "Names 30 days.", score: 0.9 } });
  const first = await seedSuite({ tag: "reused-verdicts", yaml: YAML, respond });
  const second = await seedSuite({ tag: "reused-verdicts", yaml: YAML, respond });
  try {
    await page.goto(`/runs/${second.runId}/results/${encodeURIComponent("cached answer")}`);
    const note = page.getByTestId("reused-note");
    await expect(note).toContainText(
      "Every verdict of this result was reused from the judge cache",
    );
    await expect(note).toContainText(`first paid for by run ${first.runId.slice(0, 8)}`);
    await expect(note.locator(`a[href="/runs/${first.runId}"]`)).toBeVisible();
    // The run that paid shows no such note.
    await page.goto(`/runs/${first.runId}/results/${encodeURIComponent("cached answer")}`);
    await expect(page.getByTestId("result-score")).toBeVisible();
    await expect(page.getByTestId("reused-note")).toHaveCount(0);
  } finally {
    await first.close();
    await second.close();
  }
});
