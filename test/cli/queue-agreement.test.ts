import { describe, expect, it } from "vitest";
import { agreementOf } from "../../lib/store/agreement-figures";
import { readAgreementSample } from "../../lib/store/run-agreement";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// A queued run's worker computes the judge agreement of the run it finishes on a thread of its
// own (bin/suite-worker.mjs, found from the bundled CLI), not on its event loop: the figures it
// keeps are the engine's, computed here in the test's process from the same sample.

const database = useTestDatabase();

describe("eval --queue of a jury", () => {
  it("keeps the finished run's agreement figures, computed on the worker's thread", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "evals:",
        "  - name: jury",
        '    response: "An answer."',
        '    rubric: "The answer is good (queue-agreement)."',
        "    judge: { jury: { size: 3 } }",
        "    matrix:",
        `      prompts: [${Array.from({ length: 12 }, (_, i) => `"item ${i + 1}"`).join(", ")}]`,
      ),
    );
    // Scores that differ by request, so the jurors disagree and α is not trivial.
    const judge = await startFakeJudge(onTestFinished, {
      respond: (request) => ({
        verdict: { reasoning: "ok", score: ((request.index * 7) % 10) / 10 },
      }),
    });
    const env = { ...judge.env, DATABASE_URL: database.url };
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--queue", "--reporter", "json"],
      env,
    );
    expect(run.stderr).not.toContain("was not kept");
    const runId = (JSON.parse(run.stdout) as { runId: string }).runId;
    const kept = await database.prisma.runAgreementRow.findUnique({ where: { runId } });
    expect(kept, run.stderr).not.toBeNull();
    const expected = agreementOf(await readAgreementSample(database.prisma, runId));
    expect(kept!.figures).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(kept!.figures).toMatchObject({
      results: 12,
      statistics: [{ eval: "jury", units: 12, krippendorffAlpha: { value: expect.any(Number) } }],
    });
  }, 120_000);
});
