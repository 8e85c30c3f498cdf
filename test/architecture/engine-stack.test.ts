import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// lib/engine's folders are a stack (lib/engine/README.md): eslint.config.mjs
// rejects an import from a folder into one at its own level or above, so
// `npm run lint` fails on it. Each snippet would be such an import (or not)
// in the file it pretends to be.

const repo = new URL("../..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: repo });

async function stackMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "engine/stack").map((m) => m.message);
}

describe("the engine's stack", () => {
  it.each([
    // The eleven arrows back up that issue 23 found, one of each kind.
    ['import type { ReviewOutcome } from "../review/types";', "lib/engine/results/report.ts"],
    ['import type { PairwiseOutcome } from "../pairwise/types";', "lib/engine/results/report.ts"],
    ['import type { Scheduled } from "../grade/call-scheduler";', "lib/engine/ports/live-port.ts"],
    ['import type { Transcript } from "../results/transcript";', "lib/engine/ports/live-port.ts"],
    ['import { combineJudges } from "../combine/combine-judges";', "lib/engine/grade/x.ts"],
    ['import type { PlannedCell } from "../plan/planned-cell";', "lib/engine/grade/x.ts"],
    ['import { gradeReviewCell } from "../review/grade-review";', "lib/engine/grade/x.ts"],
    ['import { gradePairwiseCell } from "../pairwise/grade-pairwise";', "lib/engine/grade/x.ts"],
    ['import type { Savings } from "../cost/savings";', "lib/engine/results/report.ts"],
    // Siblings import neither each other.
    [
      'import type { JudgeMetadata } from "../review/build-evaluation-report";',
      "lib/engine/pairwise/x.ts",
    ],
    [
      'import { judgeAgreement } from "../trust/agreement/judge-agreement";',
      "lib/engine/cell/x.ts",
    ],
    // From any depth, through the @/ alias, re-exported or loaded lazily.
    ['import { runSuite } from "../../run-suite";', "lib/engine/trust/repeat/x.ts"],
    ['import { planSuite } from "../../plan/plan-suite";', "lib/engine/review/aggregation/x.ts"],
    ['import { gradeCell } from "@/lib/engine/cell/grade-cell";', "lib/engine/plan/x.ts"],
    ['export type { Report } from "../results/report";', "lib/engine/ports/x.ts"],
    ['export const load = () => import("../plan/plan-suite");', "lib/engine/grade/x.ts"],
    // A new folder has to be given its place before anything imports it.
    ['import { x } from "../somewhere/x";', "lib/engine/plan/x.ts"],
  ])("rejects %s in %s", async (code, file) => {
    expect(await stackMessages(code, file)).not.toEqual([]);
  });

  it.each([
    ['import type { TokenUsage } from "../ports/judge-port";', "lib/engine/results/report.ts"],
    ['import type { Report } from "../results/report";', "lib/engine/grade/x.ts"],
    ['import { describeGate } from "../grade/score-rubric";', "lib/engine/combine/x.ts"],
    ['import { categoryResultOf } from "./category-result";', "lib/engine/review/x.ts"],
    ['import { countVotes } from "../aggregation/method";', "lib/engine/review/aggregation/x.ts"],
    ['import { planSuite } from "../plan/plan-suite";', "lib/engine/cell/x.ts"],
    ['import type { EvalResult } from "../../results/report";', "lib/engine/trust/people/x.ts"],
    ['import { judgeAgreement } from "./trust/agreement/judge-agreement";', "lib/engine/x.ts"],
    ['import { gradeCell } from "@/lib/engine/cell/grade-cell";', "lib/engine/run-suite.ts"],
    ['import { loadSuite } from "../../config/load-suite";', "lib/engine/ports/x.ts"],
    // Outside the engine the stack does not apply.
    ['import { runSuite } from "../engine/run-suite";', "lib/cli/x.ts"],
  ])("allows %s in %s", async (code, file) => {
    expect(await stackMessages(code, file)).toEqual([]);
  });

  it("holds for the whole of lib/engine, with no exceptions", async () => {
    const results = await eslint.lintFiles(["lib/engine/**/*.ts"]);
    const upward = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === "engine/stack")
        .map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    expect(upward).toEqual([]);
  }, 60_000);

  it("names the whole stack in its message", async () => {
    const [message] = await stackMessages(
      'import type { Report } from "../results/report";',
      "lib/engine/ports/x.ts",
    );
    expect(message).toBe(
      "lib/engine/ports must not import lib/engine/results: the engine's folders are a stack " +
        "(ports → results → cost → grade → combine → review, pairwise → plan → cell, trust → the top level), " +
        "each importing only the folders below it. Move what both need down.",
    );
  });
});
