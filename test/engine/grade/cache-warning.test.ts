import { describe, expect, it } from "vitest";
import { always, createFakeJudge } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";
import type { RunEvent } from "../../../lib/engine/run-suite";
import { cacheTtlFor } from "../../../lib/engine/grade/cache-ttl";

// A prefix the prompt cache should have written and did not is said once per
// run, not once per call and not never.

const yaml = `evals:${[1, 2, 3]
  .map(
    (i) => `
  - name: e${i}
    response: "Answer ${i}."
    rubric:
      criteria:
        - { name: accurate, description: "Is accurate." }
        - { name: brief, description: "Is brief." }`,
  )
  .join("")}\n`;

describe("the prompt-cache warning", () => {
  it("is one warning event for a run whose every call reports the same miss", async () => {
    const fake = createFakeJudge(always({ score: 1 }));
    const notice =
      "prompt cache: claude-sonnet-4-5 neither wrote nor read a prefix of about 2000 tokens";
    const judge = Object.assign(Object.create(fake) as typeof fake, {
      grade: async (...args: Parameters<typeof fake.grade>) => ({
        ...(await fake.grade(...args)),
        notice,
      }),
    });
    const events: RunEvent[] = [];
    const report = await runYaml(yaml, { judge, events });
    expect(report.summary.passed).toBe(3);
    expect(events.filter((e) => e.type === "warning")).toEqual([
      { type: "warning", message: notice },
    ]);
  });

  it("is absent when no call reports a miss", async () => {
    const events: RunEvent[] = [];
    await runYaml(yaml, { judge: createFakeJudge(always({ score: 1 })), events });
    expect(events.some((e) => e.type === "warning")).toBe(false);
  });
});

describe("the cache TTL of a run", () => {
  it("is 5 minutes for a run expected to be short, 1 hour for one expected to outlast it", () => {
    expect(cacheTtlFor({ calls: 40, concurrency: 4 })).toBe("5m");
    expect(cacheTtlFor({ calls: 4000, concurrency: 4 })).toBe("1h");
    expect(cacheTtlFor({ calls: 4000, concurrency: 1000 })).toBe("5m");
  });
});
