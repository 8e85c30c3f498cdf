import { describe, expect, it } from "vitest";
import { cellHref, cellLabel } from "../../../components/results/matrix-heatmap";

// The heatmap's drill-down link carries the cell's coordinates (the run page
// turns them into runResultsPage's exact cell filter); a missing axis is left
// out, which the page reads as "none on that axis".

describe("a matrix cell's link", () => {
  it("names the judge model and the prompt position", () => {
    expect(cellHref("r1", { model: "claude-haiku-4-5", promptIndex: 2 })).toBe(
      "/runs/r1?model=claude-haiku-4-5&prompt=2#results",
    );
    expect(cellLabel({ model: "claude-haiku-4-5", promptIndex: 2 })).toBe(
      "claude-haiku-4-5 · prompt #2",
    );
  });

  it("leaves out an axis the cell does not have", () => {
    expect(cellHref("r1", { model: null, promptIndex: 1 })).toBe("/runs/r1?prompt=1#results");
    expect(cellHref("r1", { model: "m", promptIndex: null })).toBe("/runs/r1?model=m#results");
    expect(cellLabel({ model: null, promptIndex: 1 })).toBe("(judges as configured) · prompt #1");
  });

  it("escapes a model name so it stays one parameter", () => {
    expect(cellHref("r1", { model: "a&b=c #x", promptIndex: null })).toBe(
      "/runs/r1?model=a%26b%3Dc+%23x#results",
    );
  });
});
