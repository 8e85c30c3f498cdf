import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The dependency rule of DESIGN.md is enforced by eslint.config.mjs on every
// `npm test` (npm run lint). These tests prove the rule bites: each snippet
// would be a violation in the file it pretends to be.

const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });

async function ruleMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith("no-restricted"))
    .map((m) => m.message);
}

describe("the dependency rule", () => {
  it.each([
    ['import { NextResponse } from "next/server";', "lib/engine/x.ts"],
    ['import React from "react";', "lib/config/x.ts"],
    ['import Anthropic from "@anthropic-ai/sdk";', "lib/engine/x.ts"],
    ['import { PrismaClient } from "@prisma/client";', "lib/engine/x.ts"],
    ['import { readFileSync } from "node:fs";', "lib/config/x.ts"],
    ['import { priceOf } from "../judge/pricing";', "lib/engine/x.ts"],
    ['import { REPORTERS } from "../report/registry";', "lib/engine/x.ts"],
    // From a stage folder of the engine, the store is two levels up.
    ['import { priceOf } from "../../judge/pricing";', "lib/engine/grade/x.ts"],
    [
      'import { openDatabase } from "../../../store/open-database";',
      "lib/engine/trust/agreement/x.ts",
    ],
    ['import { planSuite } from "../engine/plan-suite";', "lib/config/x.ts"],
    ['import { main } from "../lib/cli/main";', "components/x.tsx"],
    ['import Page from "../app/page";', "lib/cli/x.ts"],
    ["export const key = process.env.ANTHROPIC_API_KEY;", "lib/engine/x.ts"],
    [
      'import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";',
      "lib/engine/x.ts",
    ],
    ['import { createRetryingMessages } from "../judge/retrying-messages";', "lib/live/x.ts"],
    ['import { REPORTERS } from "../report/registry";', "lib/live/x.ts"],
    ['import { readEnv } from "../env/read-env";', "lib/live/x.ts"],
    ["export const key = process.env.ANTHROPIC_API_KEY;", "lib/live/x.ts"],
    // A pattern from data would run on the backtracking engine (issue 13: `(a+)+$`).
    ["export const m = (p: string, s: string) => new RegExp(p).test(s);", "lib/engine/x.ts"],
    ['export const m = (p: string) => RegExp(p, "i");', "lib/config/x.ts"],
    ["export const m = (q: string) => new RegExp(q);", "app/api/x/route.ts"],
    // Issue 15 item 3: the dashboard read the MCP allow-list from the CLI.
    [
      'import { dashboardAllowList } from "../../../lib/cli/live-for-run";',
      "app/api/validate/route.ts",
    ],
    ['import { main } from "@/lib/cli/main";', "app/x/page.tsx"],
    ['import { liveForRun } from "../cli/live-for-run";', "lib/store/x.ts"],
    // Issue 13 item 5: redirects built from the request URL go to 0.0.0.0 under --host 0.0.0.0.
    [
      'import { NextResponse } from "next/server";\nexport const go = (r: Request) => NextResponse.redirect(new URL("/login", r.url));',
      "app/api/auth/x/route.ts",
    ],
  ])("rejects %s in %s", async (code, file) => {
    expect(await ruleMessages(code, file)).not.toEqual([]);
  });

  it.each([
    ['import { z } from "zod";', "lib/config/x.ts"],
    ['import { loadSuite } from "../config/load-suite";', "lib/engine/x.ts"],
    ['import { loadSuite } from "../../config/load-suite";', "lib/engine/grade/x.ts"],
    ['import { Report } from "../results/report";', "lib/engine/grade/x.ts"],
    ['import { runSuite } from "../engine/run-suite";', "lib/cli/x.ts"],
    ['import Anthropic from "@anthropic-ai/sdk";', "lib/judge/x.ts"],
    ['import type Anthropic from "@anthropic-ai/sdk";', "lib/live/x.ts"],
    ['import { Client } from "@modelcontextprotocol/sdk/client/index.js";', "lib/live/x.ts"],
    ['import { runSuite } from "../engine/run-suite";', "lib/live/x.ts"],
    ['import { createLiveRunner } from "../live/create-live-runner";', "lib/cli/x.ts"],
    [
      'import { dashboardAllowList } from "../../../lib/live/server-allow-list";',
      "app/api/validate/route.ts",
    ],
    ['export const r = new RegExp(String.raw`\\bsk-ant-`, "g");', "lib/engine/x.ts"],
    ['export const r = new RegExp("^a+$");', "lib/config/x.ts"],
    ['export const filter = (p: string) => new RegExp(p, "i");', "lib/cli/x.ts"],
  ])("allows %s in %s", async (code, file) => {
    expect(await ruleMessages(code, file)).toEqual([]);
  });
});
