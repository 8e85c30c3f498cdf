import { describe, expect, it } from "vitest";
import { evidenceSegments } from "../../../components/results/evidence-spans";

// The eval detail highlights each criterion's evidence by splitting the
// candidate into segments; the text must survive intact, whatever it holds.

const join = (segments: { text: string }[]) => segments.map((s) => s.text).join("");

describe("evidenceSegments", () => {
  it("marks a span, keeping the whole text, markup included, as text", () => {
    const text = "Invoice 42 totaled $120.00. <img src=x onerror=alert(1)>";
    const segments = evidenceSegments(text, [{ index: 0, evidence: "totaled $120.00" }]);
    expect(join(segments)).toBe(text);
    expect(segments).toEqual([
      { text: "Invoice 42 ", marks: [] },
      { text: "totaled $120.00", marks: [0] },
      { text: ". <img src=x onerror=alert(1)>", marks: [] },
    ]);
  });

  it("matches across different whitespace and without the judge's quotation marks, as the engine's check does", () => {
    const segments = evidenceSegments("It is 18C\n  and clear.", [
      { index: 2, evidence: '"18C and clear"' },
    ]);
    expect(segments.find((s) => s.marks.length)).toEqual({ text: "18C\n  and clear", marks: [2] });
  });

  it("splits overlapping spans so each part names every criterion that cites it", () => {
    const segments = evidenceSegments("abc def ghi", [
      { index: 0, evidence: "abc def" },
      { index: 1, evidence: "def ghi" },
    ]);
    expect(segments).toEqual([
      { text: "abc ", marks: [0] },
      { text: "def", marks: [0, 1] },
      { text: " ghi", marks: [1] },
    ]);
  });

  it("leaves text unmarked for evidence that does not occur, or is empty", () => {
    expect(
      evidenceSegments("plain", [
        { index: 0, evidence: "invented" },
        { index: 1, evidence: '  ""  ' },
      ]),
    ).toEqual([{ text: "plain", marks: [] }]);
  });
});
