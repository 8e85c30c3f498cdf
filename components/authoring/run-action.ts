import type { DraftCheck, DraftIssue } from "./api-types";

// What the editor's Run button does with the text in the editor: Run grades
// what the user sees. Unsaved text is saved as a new version first (the server
// saves it only once it loads, and an unchanged text is not saved twice);
// text that does not load is refused, with the first error's line and reason.

/** Why text that does not load is not saved: its errors, each at its line and column (the first three, then how many more). */
export function saveRefusal(
  issues: readonly DraftIssue[],
  refused = "Not saved",
): string | undefined {
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return undefined;
  const shown = errors
    .slice(0, 3)
    .map((e) => `line ${e.line}:${e.column}: ${e.message}`)
    .join("; ");
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return `${refused}: the suite does not load. ${shown}${more}`;
}

export type RunAction =
  | { kind: "run"; label: "Run" | "Save and run"; title: string; saves: boolean }
  | { kind: "refused"; label: "Run" | "Save and run"; title: string; reason: string };

export function runAction(input: {
  text: string;
  saved: string;
  check: DraftCheck | null;
  checkedText: string | undefined;
}): RunAction {
  const saves = input.text !== input.saved;
  const label = saves ? "Save and run" : "Run";
  // A check for an older text says nothing about this one: the server loads it again anyway.
  const errors =
    input.checkedText === input.text
      ? (input.check?.issues.filter((i) => i.severity === "error") ?? [])
      : [];
  if (input.text.trim() === "")
    return {
      kind: "refused",
      label,
      title: "Nothing to run: the editor is empty",
      reason: "Nothing to run: the editor is empty.",
    };
  const first = errors[0];
  if (first) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    const reason = `Cannot run: the suite does not load. Line ${first.line}: ${first.message}${more}`;
    return { kind: "refused", label, title: reason, reason };
  }
  return saves
    ? {
        kind: "run",
        label,
        saves,
        title: "Save the editor's text as a new version, then run it on the server",
      }
    : { kind: "run", label, saves, title: "Run the saved version on the server" };
}
