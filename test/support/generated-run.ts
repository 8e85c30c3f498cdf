import { makeWorkspace, startFakeJudge, type FakeJudge, type Workspace } from "../cli/cli-harness";
import type { CliRun } from "./run-cli";
import { isJudgeRequest } from "./agent-script";

// One set-up for the tests of runs whose candidates a model generates: a stand-in that answers
// judge requests with a verdict and generation requests with a text, the suite written, and
// `eval --config suite.yaml` run through the real CLI (test/cli/generation-cost.test.ts,
// test/cli/reference-guided.test.ts, test/store/run-generation-cost.test.ts).

export interface GeneratedRun {
  ws: Workspace;
  judge: FakeJudge;
  cli: CliRun;
}

export async function runGenerated(input: {
  onTestFinished: Parameters<typeof makeWorkspace>[0];
  suite: string;
  /** After `eval --config suite.yaml`. */
  args: string[];
  /** What a generation call answers. */
  generated: string;
  /** The judges' reasoning (score 0.9). */
  reasoning: string;
  env?: Record<string, string>;
}): Promise<GeneratedRun> {
  const ws = await makeWorkspace(input.onTestFinished);
  const judge = await startFakeJudge(input.onTestFinished, {
    respond: (request) =>
      isJudgeRequest(request)
        ? { verdict: { reasoning: input.reasoning, score: 0.9 } }
        : { text: input.generated },
  });
  await ws.write("suite.yaml", input.suite);
  const cli = await ws.cli(["eval", "--config", "suite.yaml", ...input.args], {
    ...judge.env,
    ...input.env,
  });
  return { ws, judge, cli };
}
