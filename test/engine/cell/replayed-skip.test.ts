import { describe, expect, it } from "vitest";
import type { LivePort } from "../../../lib/engine/ports/live-port";
import { runSuite } from "../../../lib/engine/run-suite";
import { createFakeJudge } from "../../support/fake-judge";
import { DEFAULT_MODEL, suiteFrom } from "../../support/run-yaml";

// A cancelled cell of generated candidates says what the cancel came before:
// in a run that generates, the generation; in a regrade, which replays the
// stored candidates and generates nothing, the grading.

const SUITE = [
  "evals:",
  "  - name: explains",
  '    prompt: "Why is the sky blue?"',
  '    rubric: "Plain."',
  "    agent: { model: claude-haiku-4-5 }",
].join("\n");

const cancelled: LivePort = {
  run: async () => ({ kind: "skipped", reason: "cancelled", calls: [] }),
};

async function noteOf(replayed: boolean): Promise<string | undefined> {
  const report = await runSuite(
    {
      suite: suiteFrom(SUITE),
      defaultModel: DEFAULT_MODEL,
      concurrency: 1,
      toolVersion: "test",
      ...(replayed ? { agentsReplayed: true } : {}),
    },
    {
      judge: createFakeJudge(() => ({ score: 1 })),
      now: Date.now,
      priceOf: () => undefined,
      live: cancelled,
    },
  );
  expect(report.results.map((r) => r.status)).toEqual(["skipped"]);
  return report.results[0]!.note;
}

describe("a cancelled cell of generated candidates", () => {
  it("says it was cancelled before generating, or in a regrade before grading", async () => {
    expect(await noteOf(false)).toMatch(/before the candidate was generated$/);
    expect(await noteOf(true)).toMatch(/before its stored candidate was graded again$/);
  });
});
