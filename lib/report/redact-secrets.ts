import type { Report } from "../engine/report";
import { redactDeep } from "../engine/redact-secrets";

// The patterns live in lib/engine/redact-secrets.ts (shared with lib/live's
// transcripts and lib/store's stored results); re-exported so that callers of
// this module keep working.
export { REDACTED, SECRET_PATTERN_NAMES, redactSecrets } from "../engine/redact-secrets";

/** A deep copy of the report in which every string has been redacted; the input is not changed. */
export function redactReport(report: Report): Report {
  return redactDeep(report);
}
