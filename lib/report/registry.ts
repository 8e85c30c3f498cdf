import { redactDeep } from "../engine/results/redact-secrets";
import { csvReporter } from "./csv";
import { htmlReporter } from "./html";
import { gitlabReporter } from "./gitlab";
import { jsonReporter } from "./json";
import { junitReporter } from "./junit";
import { mdReporter } from "./md";
import { ndjsonReporter } from "./ndjson";
import { prettyReporter } from "./pretty";
import { REPORTER_NAMES, type RenderOptions, type Reporter, type ReporterName } from "./reporter";
import { sarifReporter } from "./sarif";
import { tapReporter } from "./tap";

// Every reporter, in the order the guide lists them. The CLI, the dashboard's
// download menu and test/report/registry.test.ts all walk this record, so a
// new format is added here and nowhere else.

export { REPORTER_NAMES, type ReporterName, type Reporter, type RenderOptions };

/**
 * Redaction is part of rendering: every format listed here renders a deep
 * copy of the report with credentials replaced (lib/engine/redact-secrets.ts),
 * so no caller can forget it and no format can leak what another hides.
 */
function redacting(reporter: Reporter): Reporter {
  const { stream } = reporter;
  return {
    ...reporter,
    render: (report, options) => reporter.render(redactDeep(report), options),
    ...(stream
      ? {
          stream: (options: RenderOptions) => {
            const writer = stream(options);
            return {
              start: (run) => writer.start(redactDeep(run)),
              result: (result) => writer.result(redactDeep(result)),
              end: (head) => writer.end(redactDeep(head)),
            };
          },
        }
      : {}),
  };
}

export const REPORTERS: Readonly<Record<ReporterName, Reporter>> = {
  pretty: redacting(prettyReporter),
  json: redacting(jsonReporter),
  junit: redacting(junitReporter),
  md: redacting(mdReporter),
  html: redacting(htmlReporter),
  sarif: redacting(sarifReporter),
  gitlab: redacting(gitlabReporter),
  ndjson: redacting(ndjsonReporter),
  tap: redacting(tapReporter),
  csv: redacting(csvReporter),
};

export function isReporterName(text: string): text is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(text);
}

export type ParseReporterListResult =
  { ok: true; value: ReporterName[] } | { ok: false; message: string };

/** Parses `--reporter pretty,junit`: comma-separated, case-insensitive, duplicates dropped. */
export function parseReporterList(text: string): ParseReporterListResult {
  const choices = REPORTER_NAMES.join(", ");
  const names = text
    .split(",")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "");
  if (names.length === 0)
    return { ok: false, message: `no reporter given; valid choices: ${choices}` };
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(", ");
    return {
      ok: false,
      message: `unknown reporter${unknown.length > 1 ? "s" : ""} ${list}; valid choices: ${choices}`,
    };
  }
  return { ok: true, value: [...new Set(names as ReporterName[])] };
}
