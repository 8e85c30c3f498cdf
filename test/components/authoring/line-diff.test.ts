import { describe, expect, it } from "vitest";
import { changedLineRange, diffLines, withContext } from "../../../components/authoring/line-diff";

const kinds = (text: string, next: string) =>
  diffLines(text, next).map(
    (l) => `${l.kind === "same" ? " " : l.kind === "add" ? "+" : "-"}${l.text}`,
  );

describe("diffLines", () => {
  it("shows a changed line as one deletion and one addition, with line numbers on each side", () => {
    const lines = diffLines("a\nb\nc", "a\nB\nc");
    expect(lines).toEqual([
      { kind: "same", text: "a", oldLine: 1, newLine: 1 },
      { kind: "del", text: "b", oldLine: 2 },
      { kind: "add", text: "B", newLine: 2 },
      { kind: "same", text: "c", oldLine: 3, newLine: 3 },
    ]);
  });

  it("keeps the common lines between insertions and deletions in the middle", () => {
    expect(kinds("x\n1\n2\n3\ny", "x\n2\n3\n4\ny")).toEqual([" x", "-1", " 2", " 3", "+4", " y"]);
  });

  it("handles identical and empty texts", () => {
    expect(diffLines("same", "same").every((l) => l.kind === "same")).toBe(true);
    expect(kinds("", "new")).toEqual(["-", "+new"]);
  });
});

describe("withContext", () => {
  it("folds unchanged lines far from any change into a gap that says how many", () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const rows = withContext(diffLines(old, old.replace("line 10", "line ten")), 2);
    expect(rows[0]).toEqual({ kind: "gap", hidden: 7 });
    expect(rows.filter((r) => r.kind !== "gap")).toHaveLength(6);
    expect(rows.at(-1)).toEqual({ kind: "gap", hidden: 8 });
  });
});

// Check anchors as you type re-grades the criteria an edit touched: these lines.
describe("changedLineRange", () => {
  it("is the changed lines of the new text: one edited line, an insertion, a deletion, nothing", () => {
    expect(changedLineRange("a\nb\nc\nd", "a\nB\nc\nd")).toEqual({ from: 2, to: 2 });
    expect(changedLineRange("a\nb\nc", "a\nb\nx\ny\nc")).toEqual({ from: 3, to: 4 });
    expect(changedLineRange("a\nb\nc\nd", "a\nd")).toEqual({ from: 2, to: 2 });
    expect(changedLineRange("a\nb", "a\nb\n")).toEqual({ from: 3, to: 3 });
    expect(changedLineRange("a\nb", "a\nb")).toBeUndefined();
  });
});
