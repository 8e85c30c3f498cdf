import { describe, expect, it } from "vitest";
import { runAction, saveRefusal } from "../../../components/authoring/run-action";
import type { DraftCheck } from "../../../components/authoring/api-types";

// The editor's Run button (new-user walk, item 1): Run with unsaved edits
// used to run the last saved version and drop the edits. It now grades the
// text in the editor, saving it first, and refuses text that does not load.

const saved = "suite: a\nthreshold: 0.7\n";
const edited = "suite: a\nthreshold: 0.8\n";
const clean: DraftCheck = { issues: [], plan: null };
const broken: DraftCheck = {
  issues: [
    {
      file: "suite.yaml",
      line: 2,
      column: 12,
      path: ["threshold"],
      message: "threshold must be between 0 and 1",
      severity: "error",
    },
  ],
  plan: null,
};

describe("the editor's Run button", () => {
  it("offers 'Save and run' for unsaved edits, and saves them before running", () => {
    const action = runAction({ text: edited, saved, check: clean, checkedText: edited });
    expect(action).toMatchObject({ kind: "run", label: "Save and run", saves: true });
    expect(action.title).toMatch(/save.*new version.*run/i);
  });

  it("runs the saved version as it is when nothing changed (no second save)", () => {
    expect(runAction({ text: saved, saved, check: clean, checkedText: saved })).toMatchObject({
      kind: "run",
      label: "Run",
      saves: false,
    });
  });

  it("refuses text that does not load, with the line and the reason", () => {
    const action = runAction({ text: edited, saved, check: broken, checkedText: edited });
    expect(action.kind).toBe("refused");
    if (action.kind !== "refused") return;
    expect(action.reason).toContain("Line 2: threshold must be between 0 and 1");
  });

  it("does not refuse on a check of an older text (the server loads the new one again)", () => {
    expect(runAction({ text: edited, saved, check: broken, checkedText: saved }).kind).toBe("run");
  });

  it("refuses an empty editor", () => {
    expect(runAction({ text: "", saved: "", check: null, checkedText: undefined }).kind).toBe(
      "refused",
    );
  });
});

describe("the editor's Save (button and Ctrl/Cmd+S)", () => {
  it("refuses text that does not load, naming each error at its line and column; warnings do not stop it", () => {
    expect(saveRefusal(broken.issues)).toBe(
      "Not saved: the suite does not load. line 2:12: threshold must be between 0 and 1",
    );
    const many = Array.from({ length: 5 }, (_, i) => ({ ...broken.issues[0]!, line: i + 1 }));
    expect(saveRefusal(many)).toMatch(
      /line 1:12: .*; line 2:12: .*; line 3:12: .* \(and 2 more\)$/,
    );
    expect(saveRefusal([{ ...broken.issues[0]!, severity: "warning" }])).toBeUndefined();
    expect(saveRefusal(clean.issues)).toBeUndefined();
  });
});
