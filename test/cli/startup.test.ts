import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { startFakeOpenAIApi } from "../support/fake-openai-api";
import { makeWorkspace, startFakeJudge, yaml, type Workspace } from "./cli-harness";

// What a command loads is what it pays for at start-up, before its first judge
// call (issue 10, item 7). A run on Claude judges with written responses needs
// neither the openai SDK, nor the MCP SDK (live evals), nor Prisma and the
// database drivers (run history, the job queue): each loads only on the runs
// that use it.

const RECORDER = fileURLToPath(new URL("../support/record-loaded-modules.mjs", import.meta.url));
const HEAVY = [
  "openai",
  "@modelcontextprotocol/sdk",
  "@prisma/client",
  "pg",
  "@electric-sql/pglite",
  "pg-boss",
];

/** The packages under node_modules the CLI process loaded a module of. */
async function packagesLoaded(
  ws: Workspace,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; packages: Set<string> }> {
  const record = path.join(ws.dir, "loaded.txt");
  const run = await ws.cli(args, {
    ...env,
    NODE_OPTIONS: `--import ${RECORDER}`,
    RECORD_LOADED_MODULES: record,
  });
  const urls = (await readFile(record, "utf8")).split("\n");
  const packages = new Set(
    urls
      .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
      .filter((name) => name !== undefined),
  );
  return { code: run.code, stderr: run.stderr, packages };
}

const suite = (judge: string) =>
  yaml(
    "evals:",
    "  - name: refund answer",
    '    response: "Refunds take 5 days."',
    "    rubric:",
    "      criteria:",
    "        - { name: states the delay, description: Says how long a refund takes. }",
    "        - { name: polite, description: Is polite. }",
    `    judge: { model: ${judge} }`,
  );

describe.concurrent("what a command loads", () => {
  test("eval on Claude judges grades every criterion without loading the openai SDK, the MCP SDK or any database package", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
    });
    await ws.write("suite.yaml", suite("claude-haiku-4-5"));

    const run = await packagesLoaded(ws, ["eval", "--config", "suite.yaml"], judge.env);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(judge.api.requests).toHaveLength(2);
    expect(HEAVY.filter((name) => run.packages.has(name))).toEqual([]);
  });

  test("an OpenAI-compatible judge loads the openai SDK for its calls, and grades", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const openai = await startFakeOpenAIApi({
      respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
    });
    onTestFinished(() => openai.close());
    await ws.write("suite.yaml", suite("openai:gpt-4.1-mini"));

    const run = await packagesLoaded(ws, ["eval", "--config", "suite.yaml"], {
      OPENAI_API_KEY: "sk-openai-test",
      OPENAI_BASE_URL: openai.url,
    });
    expect(run.code).toBe(0);
    expect(openai.requests).toHaveLength(2);
    expect(run.packages.has("openai")).toBe(true);
    expect(HEAVY.filter((name) => name !== "openai" && run.packages.has(name))).toEqual([]);
  });
});
