import { SuiteSchema } from "./schema";
import { parseYaml, type DataPath, type YamlLocator } from "./yaml-locator";
import { salvageSuite } from "./salvage-suite";
import { zodIssuesToConfigIssues } from "./zod-issues";
import { checkSuite } from "./check-suite";
import { resolveSuite } from "./resolve-suite";
import { planSizeIssues } from "./plan-size";
import { storableTextIssues } from "./storable-text";
import type { ConfigIssue, LoadResult } from "./types";
import type { PlanLimits } from "./limits";

/**
 * YAML text in, a typed suite or every located issue out. Never throws for bad
 * input: the CLI, the editor's markers and the HTTP API all show these issues.
 */
export function loadSuite(input: LoadSuiteInput): LoadResult {
  try {
    return loadSuiteText(input);
  } catch (error) {
    // A bug, not the author's mistake; still an answer the caller can show
    // (the fuzz test fails on this message, so it is not a hiding place).
    return {
      ok: false,
      issues: [
        {
          file: input.file,
          line: 1,
          column: 1,
          path: [],
          message: `${INTERNAL_ERROR}: ${(error as Error).message}`,
          severity: "error",
        },
      ],
    };
  }
}

export interface LoadSuiteInput {
  text: string;
  file: string;
  /**
   * The bounds on what the suite plans. Left out: the browser's (BROWSER_PLAN_LIMITS), which is
   * what every caller but the CLI gets; the CLI passes a file's (lib/cli/file-limits.ts).
   */
  limits?: PlanLimits;
}

/** The start of the message of an issue that is a loader bug. */
export const INTERNAL_ERROR = "internal error while loading the suite";

function loadSuiteText(input: LoadSuiteInput): LoadResult {
  const { text, file } = input;
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const { data, locator } = parsed;
  if (data === null || data === undefined) {
    return {
      ok: false,
      issues: [
        {
          file,
          line: 1,
          column: 1,
          path: [],
          message: "the file is empty; a suite needs an evals: list",
          severity: "error",
        },
      ],
    };
  }
  // Before anything else reads it: a NUL or an unpaired surrogate could not be stored with the run.
  const unstorable = storableTextIssues({ text, data, locator, file });
  if (unstorable.length > 0) return { ok: false, issues: sortIssues(unstorable) };
  const result = SuiteSchema.safeParse(data);
  if (!result.success) {
    const schemaIssues = zodIssuesToConfigIssues({
      error: result.error,
      schema: SuiteSchema,
      data,
      locator,
      file,
    });
    return {
      ok: false,
      issues: sortIssues([
        ...schemaIssues,
        ...semanticIssuesDespite({ data, locator, file, schemaIssues }),
      ]),
    };
  }
  const { errors, warnings } = checkSuite({ suite: result.data, locator, file });
  if (errors.length > 0) return { ok: false, issues: sortIssues(errors) };
  const suite = resolveSuite({ suite: result.data, locator, file });
  const tooLarge = planSizeIssues(suite, input.limits);
  if (tooLarge.length > 0) return { ok: false, issues: tooLarge };
  return { ok: true, value: suite, warnings: sortIssues(warnings) };
}

/**
 * The checks of check-suite.ts on what is left once the schema's rejections
 * are cut out (salvage-suite.ts), so every problem shows at once. An error on
 * a path above one the schema rejected is left out: it may only be the cut's
 * echo (a rubric without its misspelt `ref` "needs criteria").
 */
function semanticIssuesDespite(input: {
  data: unknown;
  locator: YamlLocator;
  file: string;
  schemaIssues: ConfigIssue[];
}): ConfigIssue[] {
  const salvaged = salvageSuite({
    data: input.data,
    issues: input.schemaIssues,
    locator: input.locator,
    file: input.file,
  });
  if (!salvaged) return [];
  // Every rejected path and each of its ancestors, so the test per issue is one lookup.
  const rejected = new Set(
    input.schemaIssues.flatMap(({ path }) =>
      Array.from({ length: path.length + 1 }, (_, i) => JSON.stringify(path.slice(0, i))),
    ),
  );
  const above = (path: DataPath) => rejected.has(JSON.stringify(path));
  return checkSuite({ suite: salvaged.suite, locator: salvaged.locator, file: input.file })
    .errors.map((issue) => ({ ...issue, path: salvaged.originalPath(issue.path) }))
    .filter((issue) => !above(issue.path));
}

function sortIssues(issues: ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** `file:line:column: message`, the form editors and terminals make clickable. */
export function formatIssue(issue: ConfigIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity}: ${issue.message}`;
}
