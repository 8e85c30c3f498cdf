import { expect, test } from "@playwright/test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startFakeMessagesApi } from "../support/fake-messages-api";
import { storeRun } from "./results-seed";

// A result answered from the judge cache reads "Judge calls 0 · Cost $0 ·
// Tokens 0": its page says that its verdicts were reused, and which stored run
// paid for them. Seeded by the real CLI: `eval --store` twice on one suite,
// the second answered by the judge cache.

const YAML = `evals:
  - name: cached answer
    response: "Refunds within 30 days."
    rubric: "Names the refund window (reused-verdicts)."
`;

/** Two stored runs of the suite: the first pays for the verdict, the second reuses it. */
async function storeTwice(): Promise<[string, string]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-reused-"));
  const api = await startFakeMessagesApi({
    respond: () => ({ verdict: { reasoning: "Names 30 days.", score: 0.9 } }),
  });
  try {
    await writeFile(path.join(dir, "reused.yaml"), YAML);
    const store = () => storeRun({ dir, file: "reused.yaml", apiUrl: api.url, cache: true });
    const ids = [await store(), await store()];
    if (api.requests.length !== 1)
      throw new Error(`expected one paid call, saw ${api.requests.length}`);
    return [ids[0]!, ids[1]!];
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test("a result whose verdicts came from the judge cache says so, and names the run that paid for them", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const [first, second] = await storeTwice();
  await page.goto(`/runs/${second}/results/${encodeURIComponent("cached answer")}`);
  const note = page.getByTestId("reused-note");
  await expect(note).toContainText("Every verdict of this result was reused from the judge cache");
  await expect(note).toContainText(`first paid for by run ${first.slice(0, 8)}`);
  await expect(note.locator(`a[href="/runs/${first}"]`)).toBeVisible();
  // The run that paid shows no such note.
  await page.goto(`/runs/${first}/results/${encodeURIComponent("cached answer")}`);
  await expect(page.getByTestId("result-score")).toBeVisible();
  await expect(page.getByTestId("reused-note")).toHaveCount(0);
});
