import type { Report } from "../engine/results/report";
import type { ResultWriter } from "./result-stream";

// The names live here rather than in registry.ts so that each reporter module
// can type its own `name` without a cycle through the registry.
export const REPORTER_NAMES = [
  "pretty",
  "json",
  "junit",
  "md",
  "html",
  "sarif",
  "gitlab",
  "ndjson",
  "tap",
  "csv",
] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

export interface RenderOptions {
  /** ANSI colours; only the pretty reporter uses them, every other format ignores it. */
  color: boolean;
}

export interface Reporter {
  name: ReporterName;
  /** File extension without the leading dot, for `--output` paths. */
  extension: string;
  /** MIME-ish description */
  description: string;
  /** Pure: the same report and options always give the same text. */
  render(report: Report, options: RenderOptions): string;
  /**
   * The formats that write as the run goes (issue 20): a fresh writer per output, fed the
   * results one by one. `render` is this writer over a whole report. Absent: the format needs
   * the whole report (json, md, html, gitlab).
   */
  stream?: (options: RenderOptions) => ResultWriter;
}
