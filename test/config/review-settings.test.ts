import { describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import { reviewSettingsOf } from "../../lib/config/review-settings";

// The suite's review: block: the share of queued items offered to a second
// reviewer; out of range, it is a located error, not a crash or a silent 0.

const suite = (review: string) => `review: ${review}
evals:
  - name: greeting
    response: "Hello."
    rubric: "Is it polite?"
`;

describe("review: { second_opinion_rate }", () => {
  it("reads the rate of a suite that sets one, 0 for one that does not", () => {
    expect(loadSuite({ text: suite("{ second_opinion_rate: 0.1 }"), file: "s.yaml" }).ok).toBe(
      true,
    );
    expect(reviewSettingsOf(suite("{ second_opinion_rate: 0.1 }"))).toEqual({
      secondOpinionRate: 0.1,
    });
    expect(reviewSettingsOf(suite("{}"))).toEqual({ secondOpinionRate: 0 });
    expect(reviewSettingsOf("evals: [")).toEqual({ secondOpinionRate: 0 });
  });

  it("refuses a rate outside 0..1, or not a number, at its line and column", () => {
    for (const bad of [
      "{ second_opinion_rate: 1.5 }",
      "{ second_opinion_rate: -0.1 }",
      '{ second_opinion_rate: "often" }',
    ]) {
      const loaded = loadSuite({ text: suite(bad), file: "s.yaml" });
      expect(loaded.ok).toBe(false);
      const issue = !loaded.ok ? loaded.issues[0] : undefined;
      expect(issue).toMatchObject({
        file: "s.yaml",
        line: 1,
        column: 32,
        path: ["review", "second_opinion_rate"],
        message: expect.stringContaining("second_opinion_rate is a share of items from 0 to 1"),
      });
    }
    const typo = loadSuite({ text: suite("{ second_opinion: 0.1 }"), file: "s.yaml" });
    expect(!typo.ok && typo.issues[0]!.path).toEqual(["review", "second_opinion"]);
  });
});
