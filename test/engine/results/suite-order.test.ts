import { describe, expect, it } from "vitest";
import { inSuiteOrder } from "../../../lib/engine/results/suite-order";

// Stored results come back in the order they finished; views list them in the
// suite's order, the same on every load.

const at = (line: number, column = 5) => ({ file: "suite.yaml", line, column });

describe("inSuiteOrder", () => {
  it("orders by the eval's place in the file, a matrix's cells by prompt position, then by name with numbers as numbers", () => {
    const finished = [
      { name: "second", location: at(20), cell: null },
      { name: "matrix [prompt=#2]", location: at(10), cell: { prompt: "b", promptIndex: 2 } },
      { name: "items [item=q10]", location: at(30), cell: { item: "q10" } },
      { name: "no location", cell: null },
      { name: "matrix [prompt=#1]", location: at(10), cell: { prompt: "a", promptIndex: 1 } },
      { name: "items [item=q2]", location: at(30), cell: { item: "q2" } },
      { name: "first", location: at(3), cell: null },
    ];
    expect(inSuiteOrder(finished).map((r) => r.name)).toEqual([
      "first",
      "matrix [prompt=#1]",
      "matrix [prompt=#2]",
      "second",
      "items [item=q2]",
      "items [item=q10]",
      "no location",
    ]);
    // The input is left as it was.
    expect(finished[0]!.name).toBe("second");
  });
});

describe("a matrix's or dataset's cells", () => {
  it("come as planned (cellIndex: models as the matrix lists them, items in the dataset's order), not by name", () => {
    const finished = [
      {
        name: "m [item=alpha, model=claude-haiku-4-5]",
        location: at(10),
        cell: null,
        cellIndex: 4,
      },
      { name: "m [item=zeta, model=claude-haiku-4-5]", location: at(10), cell: null, cellIndex: 2 },
      {
        name: "m [item=alpha, model=claude-sonnet-4-6]",
        location: at(10),
        cell: null,
        cellIndex: 3,
      },
      {
        name: "m [item=zeta, model=claude-sonnet-4-6]",
        location: at(10),
        cell: null,
        cellIndex: 1,
      },
    ];
    expect(inSuiteOrder(finished).map((r) => r.cellIndex)).toEqual([1, 2, 3, 4]);
  });
});
