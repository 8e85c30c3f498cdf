import { describe, expect, it } from "vitest";
import { flipCountsText } from "../../../components/results/flip-counts";

// The flips page's headline reads as a hand count of the rows below it.

describe("flipCountsText", () => {
  it("counts the flips by direction, then what moved and what did not", () => {
    expect(
      flipCountsText({
        nowFail: 2,
        nowPass: 1,
        criteria: 0,
        notGraded: 0,
        moved: 0,
        unchanged: 14,
      }),
    ).toBe("3 flips: 2 now fail, 1 now passes; 14 unchanged");
    expect(
      flipCountsText({ nowFail: 1, nowPass: 0, criteria: 0, notGraded: 0, moved: 2, unchanged: 1 }),
    ).toBe("1 flip: 1 now fails; 2 moved without flipping; 1 unchanged");
    expect(
      flipCountsText({ nowFail: 0, nowPass: 0, criteria: 0, notGraded: 0, moved: 0, unchanged: 7 }),
    ).toBe("0 flips; 7 unchanged");
  });

  it("counts a result whose criterion flipped while its own verdict held as a flip", () => {
    expect(
      flipCountsText({ nowFail: 1, nowPass: 0, criteria: 2, notGraded: 0, moved: 0, unchanged: 3 }),
    ).toBe("3 flips: 1 now fails, 2 with a criterion flipped; 3 unchanged");
  });

  it("says the results not graded (skipped or deferred) apart: neither a pass nor a fail, never a flip", () => {
    expect(
      flipCountsText({ nowFail: 0, nowPass: 1, criteria: 0, notGraded: 3, moved: 1, unchanged: 2 }),
    ).toBe("1 flip: 1 now passes; 3 not graded; 1 moved without flipping; 2 unchanged");
  });
});
