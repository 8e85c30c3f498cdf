import { SuiteSchema } from "./schema";
import { parseYaml } from "./yaml-locator";
import { zodIssuesToConfigIssues } from "./zod-issues";
import { checkSuite } from "./check-suite";
import { resolveSuite } from "./resolve-suite";
import { planSizeIssues } from "./plan-size";
import type { ConfigIssue, LoadResult } from "./types";

/**
 * YAML text in, a typed suite or every located issue out. Never throws for bad
 * input: the CLI, the editor's markers and the HTTP API all show these issues.
 */
export function loadSuite(input: { text: string; file: string }): LoadResult {
  try {
    return loadSuiteText(input);
  } catch (error) {
    // A bug, not the author's mistake; still an answer the caller can show
    // (the fuzz test fails on this message, so it is not a hiding place).
    return { ok: false, issues: [{ file: input.file, line: 1, column: 1, path: [], message: `${INTERNAL_ERROR}: ${(error as Error).message}`, severity: "error" }] };
  }
}

/** The start of the message of an issue that is a loader bug. */
export const INTERNAL_ERROR = "internal error while loading the suite";

function loadSuiteText(input: { text: string; file: string }): LoadResult {
  const { text, file } = input;
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const { data, locator } = parsed;
  if (data === null || data === undefined) {
    return { ok: false, issues: [{ file, line: 1, column: 1, path: [], message: "the file is empty; a suite needs an evals: list", severity: "error" }] };
  }
  const result = SuiteSchema.safeParse(data);
  if (!result.success) {
    return { ok: false, issues: sortIssues(zodIssuesToConfigIssues({ error: result.error, schema: SuiteSchema, data, locator, file })) };
  }
  const { errors, warnings } = checkSuite({ suite: result.data, locator, file });
  if (errors.length > 0) return { ok: false, issues: sortIssues(errors) };
  const suite = resolveSuite({ suite: result.data, locator, file });
  const tooLarge = planSizeIssues(suite);
  if (tooLarge.length > 0) return { ok: false, issues: tooLarge };
  return { ok: true, value: suite, warnings: sortIssues(warnings) };
}

function sortIssues(issues: ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** `file:line:column: message`, the form editors and terminals make clickable. */
export function formatIssue(issue: ConfigIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity}: ${issue.message}`;
}
