import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST } from "../../../app/api/validate/route";
import type { DraftCheck } from "../../../lib/engine/plan/check-draft";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";
import { runCli } from "../../support/run-cli";

// Bounds by source: what a browser posts keeps the editor's bounds (10,000
// items in a dataset, 10,000 cells, 100,000 judge calls), whatever the
// server's environment raises for files run from the CLI; the same text run
// from a file with the CLI gets a file's bounds.

afterAll(() => resetSuiteWorkers());

const check = async (yaml: string) => {
  const response = await POST(
    new Request("http://127.0.0.1/api/validate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ yaml }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as DraftCheck;
};

const suite = (items: number, models: string[]) =>
  [
    "datasets:",
    "  answers:",
    "    items:",
    ...Array.from({ length: items }, (_, i) => `      - { id: a${i}, expected_output: "ok ${i}" }`),
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: answers }",
    ...(models.length ? [`    matrix: { models: [${models.join(", ")}] }`] : []),
    '    rubric: "Answers."',
    "",
  ].join("\n");

describe("POST /api/validate keeps the browser's bounds", () => {
  it("refuses an inline dataset of 10,001 items", async () => {
    const body = await check(suite(10_001, []));
    expect(body.issues.map((i) => i.message)).toContain("a dataset has at most 10,000 items");
  });

  it("refuses 15,000 cells that the CLI accepts from a file, even with RUBRIC_STUDIO_MAX_CELLS set on the server", async () => {
    const yaml = suite(5_000, ["claude-haiku-4-5", "claude-sonnet-4-6", "claude-opus-4-1"]);
    const before = process.env.RUBRIC_STUDIO_MAX_CELLS;
    process.env.RUBRIC_STUDIO_MAX_CELLS = "20000000";
    try {
      const body = await check(yaml);
      expect(body.issues.map((i) => i.message)).toContain(
        'eval "answers" plans 5,000 items × 3 models = 15,000 cells; a suite may plan at most 10,000 cells',
      );
    } finally {
      if (before === undefined) delete process.env.RUBRIC_STUDIO_MAX_CELLS;
      else process.env.RUBRIC_STUDIO_MAX_CELLS = before;
    }
    const dir = await mkdtemp(path.join(tmpdir(), "rubric-bounds-"));
    try {
      await writeFile(path.join(dir, "suite.yaml"), yaml);
      const run = await runCli(["validate", "--config", "suite.yaml"], { cwd: dir });
      expect(run.stdout).toBe("suite.yaml: valid (1 eval, 15,000 cells)\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
