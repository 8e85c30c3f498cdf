import { describe, expect, it } from "vitest";
import { runGenerated } from "../support/generated-run";
import { yaml } from "./cli-harness";

// A run whose candidates a model generated pays two kinds of model calls: the
// generation and the judges. `eval --explain` prices them apart; the summary
// says them apart too, and the two parts add up to the total it prints.

const SUITE = yaml(
  "judge: { model: claude-sonnet-4-6 }",
  "evals:",
  "  - name: explains",
  '    rubric: "Explains it plainly."',
  "    agent: { model: claude-haiku-4-5 }",
  '    prompt: "Why is the sky blue?"',
);

interface Json {
  summary: {
    judgeCalls: number;
    costUsd: number;
    usage: { input: number; output: number };
    generation?: { calls: number; costUsd: number; usage: { input: number; output: number } };
  };
  results: { calls: { costUsd: number | null }[] }[];
}

describe("the summary of a run with generated candidates", () => {
  it("gives the judges' and the generation's calls, tokens and cost apart, adding up to the total", async ({
    onTestFinished,
  }) => {
    const {
      ws,
      judge,
      cli: json,
    } = await runGenerated({
      onTestFinished,
      suite: SUITE,
      args: ["--reporter", "json"],
      generated: "Sunlight scatters off the air, blue most of all.",
      reasoning: "Plain.",
    });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as Json;
    const generation = report.summary.generation!;
    expect(generation).toMatchObject({ calls: 1 });
    expect(generation.costUsd).toBeGreaterThan(0);
    const judgeUsd = report.results
      .flatMap((r) => r.calls)
      .reduce((n, c) => n + (c.costUsd ?? 0), 0);
    expect(judgeUsd).toBeGreaterThan(0);
    expect(judgeUsd + generation.costUsd).toBeCloseTo(report.summary.costUsd, 10);

    const pretty = await ws.cli(["eval", "--config", "suite.yaml", "--no-cache"], judge.env);
    expect(pretty.code, pretty.stderr).toBe(0);
    expect(pretty.stdout).toMatch(/in all: [\d,]+ tokens .* · cost \$[\d.]+ · /);
    expect(pretty.stdout).toMatch(
      /judges: 1 call, [\d,]+ tokens \(input [\d,]+, output [\d,]+, cache read 0, cache write 0\), \$[\d.]+ · generation: 1 call, [\d,]+ tokens .*, \$[\d.]+/,
    );

    // The projection is the whole run's, split as the editor's headline splits it, in the run's
    // first line and in --explain's Plan line alike: one meaning of "projected".
    const projected = /projected ~\$([\d.]+) \(judges ~\$([\d.]+) \+ generation ~\$([\d.]+)\)/.exec(
      pretty.stderr,
    );
    expect(projected, pretty.stderr).not.toBeNull();
    const [, total, judges, generated] = projected!.map(Number);
    expect(judges! + generated!).toBeCloseTo(total!, 3);
    const explain = await ws.cli(["eval", "--config", "suite.yaml", "--explain"], judge.env);
    expect(explain.stdout).toMatch(
      new RegExp(
        `^Plan: .* projected cost ~\\$${total!.toFixed(4).replace(".", "\\.")} \\(judges ~\\$${judges!.toFixed(4).replace(".", "\\.")} \\+ generation ~\\$`,
        "m",
      ),
    );
  });
});
