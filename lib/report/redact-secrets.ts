import type { EvalResult, Report } from "../engine/report";
import { redactSecrets } from "../engine/redact-secrets";

// The patterns live in lib/engine/redact-secrets.ts (shared with lib/live's
// transcripts); re-exported so that callers of this module keep working.
export { REDACTED, SECRET_PATTERN_NAMES, redactSecrets } from "../engine/redact-secrets";

function redactDeep(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, redactDeep(inner)]));
  }
  return value;
}

/** A deep copy of one result with every string redacted, for storage. */
export function redactResult(result: EvalResult): EvalResult {
  return redactDeep(result) as EvalResult;
}

/** A deep copy of the report in which every string has been redacted; the input is not changed. */
export function redactReport(report: Report): Report {
  return redactDeep(report) as Report;
}
