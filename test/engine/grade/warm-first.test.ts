import { describe, expect, it } from "vitest";
import { CallScheduler } from "../../../lib/engine/grade/call-scheduler";
import { createFakeJudge, type FakeScript } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";
import type { JudgePort, JudgeRequest, VerdictKind } from "../../../lib/engine/ports/judge-port";

// Warm before fan-out: the first call of a new prompt-cache prefix goes
// alone; the calls that share it follow once it is answered, and meanwhile the
// free slots go to calls that share nothing still warming.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("the scheduler's warm-first rule", () => {
  it("holds the calls that share a prefix being written, and fills the free slots with other calls", async () => {
    const scheduler = new CallScheduler({ concurrency: 4 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const submit = (name: string, prefixes: string[]) => {
      const gate = deferred();
      gates.set(name, gate);
      return scheduler.submit(
        0,
        async () => {
          started.push(name);
          await gate.promise;
          return { value: name, costUsd: 0 };
        },
        { prefixes },
      );
    };
    const all = [
      submit("a1", ["rubric", "rubric+a"]),
      submit("a2", ["rubric", "rubric+a"]),
      submit("b1", ["rubric", "rubric+b"]),
      submit("x", ["other"]),
      submit("y", []),
    ];
    await Promise.resolve();
    // a2 and b1 share the rubric prefix a1 is writing; x and y use the slots meanwhile.
    expect(started).toEqual(["a1", "x", "y"]);
    gates.get("a1")!.resolve();
    await new Promise((r) => setTimeout(r, 0));
    // The rubric is readable now: a2 reads both prefixes, b1 reads the rubric and writes its own candidate.
    expect(started).toEqual(["a1", "x", "y", "a2", "b1"]);
    for (const gate of gates.values()) gate.resolve();
    expect((await Promise.all(all)).map((r) => (r.skipped ? r.reason : r.value))).toEqual([
      "a1",
      "a2",
      "b1",
      "x",
      "y",
    ]);
  });

  it("refuses held calls at once when their run is cancelled", async () => {
    const scheduler = new CallScheduler({ concurrency: 2 });
    const cancel = new AbortController();
    const first = deferred();
    const warmer = scheduler.submit(
      0,
      async () => {
        await first.promise;
        return { value: "warmer", costUsd: 0 };
      },
      { stops: [{ signal: cancel.signal, kind: "cancelled" }], prefixes: ["p"] },
    );
    const held = scheduler.submit(0, async () => ({ value: "held", costUsd: 0 }), {
      stops: [{ signal: cancel.signal, kind: "cancelled" }],
      prefixes: ["p"],
    });
    cancel.abort();
    expect(await held).toEqual({ skipped: true, reason: "cancelled" });
    first.resolve();
    expect(await warmer).toEqual({ skipped: false, value: "warmer" });
  });
});

describe("a run with a judge that caches prompts", () => {
  it("answers the first criterion of each candidate before its other criteria are sent", async () => {
    const yaml = `evals:${["one", "two", "three"]
      .map(
        (name) => `
  - name: ${name}
    response: "Answer ${name}."
    rubric:
      criteria:
        - { name: accurate, description: "Is accurate." }
        - { name: brief, description: "Is brief." }
        - { name: polite, description: "Is polite." }`,
      )
      .join("")}\n`;
    const log: string[] = [];
    const candidateOf = (r: JudgeRequest<VerdictKind>) =>
      /Answer (\w+)\./.exec(r.candidatePrompt)![1]!;
    const script: FakeScript = async (request) => {
      log.push(`start ${candidateOf(request)}`);
      await new Promise((r) => setTimeout(r, 5));
      log.push(`end ${candidateOf(request)}`);
      return { score: 1 };
    };
    const fake = createFakeJudge(script);
    const judge: JudgePort & typeof fake = Object.assign(fake, {
      cachePrefixes: (r: JudgeRequest<VerdictKind>) => [
        r.stablePrompt,
        `${r.stablePrompt}\u0000${r.candidatePrompt}`,
      ],
    });
    const report = await runYaml(yaml, { judge, concurrency: 8 });
    expect(report.summary.passed).toBe(3);
    // The rubric's first call goes alone; then each candidate's first call goes before its other two.
    expect(log.slice(0, 2)).toEqual(["start one", "end one"]);
    for (const name of ["one", "two", "three"]) {
      const starts = log.flatMap((line, i) => (line === `start ${name}` ? [i] : []));
      const firstEnd = log.indexOf(`end ${name}`);
      expect(starts).toHaveLength(3);
      expect(starts.slice(1).every((i) => i > firstEnd)).toBe(true);
    }
  });
});
