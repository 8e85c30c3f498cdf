import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { createSuite, setText, unique } from "./suite-editor";

// The editor's side column with examples/model-matrix.yaml (two agents of two providers, a
// judge): at 1400 and 1024 px every column of the plan's models table shows whole (model,
// provider, here), and it sits below the per-cell cost rows, never over them.

for (const width of [1400, 1024]) {
  test(`the plan's models table shows whole, below the cost rows, at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 1000 });
    await createSuite(page, unique(`layout ${width}`));
    const yaml = await readFile(
      new URL("../../examples/model-matrix.yaml", import.meta.url),
      "utf8",
    );
    await setText(page, yaml);
    const models = page.getByTestId("plan-models");
    await expect(models.getByTestId("plan-model")).toHaveCount(3);
    // Every cell of the models table is on top where it is drawn (nothing laid over it: the
    // generation note covered the last row, the panel shrunk in the side column) and shows whole.
    const hidden = await models.evaluate((table) =>
      [...table.querySelectorAll("th, td")]
        .filter((cell) => {
          cell.scrollIntoView({ block: "center" });
          const box = cell.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return !(top && cell.contains(top)) || cell.scrollWidth > cell.clientWidth + 1;
        })
        .map((cell) => cell.textContent),
    );
    expect(hidden).toEqual([]);
    await expect(
      models.locator('[data-model="openai:gpt-4.1-mini"] [data-testid=plan-model-provider]'),
    ).toHaveText("openai · gpt-4.1-mini");
    // In order down the panel: the cost rows' box, the models, the generation note.
    const bottomOf = (testId: string) =>
      page.getByTestId(testId).evaluate((el) => el.parentElement!.getBoundingClientRect().bottom);
    const modelsBox = await models.evaluate((el) => el.getBoundingClientRect().toJSON());
    expect(modelsBox.top).toBeGreaterThanOrEqual(await bottomOf("plan-evals"));
    const note = await page
      .getByTestId("plan-generation")
      .evaluate((el) => el.getBoundingClientRect().top);
    expect(note).toBeGreaterThanOrEqual(modelsBox.bottom);
  });
}
