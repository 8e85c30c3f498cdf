import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// lib/stats is pure like lib/engine and a leaf besides: eslint.config.mjs
// rejects I/O, frameworks, the environment and the rest of lib/ there.

const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });

async function ruleMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith("no-restricted"))
    .map((m) => m.message);
}

describe("the lib/stats rule", () => {
  it.each([
    ['import { readFileSync } from "node:fs";', "lib/stats/x.ts"],
    ['import { runSuite } from "../engine/run-suite";', "lib/stats/x.ts"],
    ['import { loadSuite } from "../config/load-suite";', "lib/stats/x.ts"],
    ['import { REPORTERS } from "../report/registry";', "lib/stats/x.ts"],
    ["export const seed = process.env.SEED;", "lib/stats/x.ts"],
  ])("rejects %s in %s", async (code, file) => {
    expect(await ruleMessages(code, file)).not.toEqual([]);
  });

  it.each([
    ['import { krippendorffAlpha } from "../stats/krippendorff-alpha";', "lib/engine/x.ts"],
    ['import { stat } from "./result";', "lib/stats/x.ts"],
  ])("allows %s in %s", async (code, file) => {
    expect(await ruleMessages(code, file)).toEqual([]);
  });
});
