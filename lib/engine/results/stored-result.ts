import type { EvalResult } from "./report";
import { withSkipKind } from "./skip-kind";
import { withVerdictText } from "./stored-verdicts-text";

// A result as stored by an earlier version, read as this version writes it:
// a skip without its kind gets the kind its note spelt, and a judge error's
// reason loses the raw `judge_error: ` prefix it used to carry (the status
// says it is a judge error; the reason is its message). A lone verdict stored
// without the reasoning and evidence its criterion repeats gets them back
// (stored-verdicts-text.ts).

const LEGACY_JUDGE_ERROR = "judge_error: ";

export function readStoredResult(result: EvalResult): EvalResult {
  const read = withSkipKind(withVerdictText(result));
  if (read.status !== "judge_error" || !read.reason.startsWith(LEGACY_JUDGE_ERROR)) return read;
  return { ...read, reason: read.reason.slice(LEGACY_JUDGE_ERROR.length) };
}
