// A suite as a file outside the dashboard: the name its download is saved
// under, and that name as one shell word, for the commands the pages print.

import { suiteFileName } from "../../lib/config/suite-file-name";

export { suiteFileName };

/**
 * The calibrate command for a downloaded suite: `--config` is the file the
 * download is saved as, and when the CLI would name the stored suite otherwise
 * (it names it by the path given), `--suite` files the calibration under this one.
 */
export function calibrateCommandFor(suiteName: string): string {
  const file = suiteFileName(suiteName);
  const sameName = file === suiteName;
  return `npx rubric-studio calibrate --config ${shellQuote(file)} --store${sameName ? "" : ` --suite ${shellQuote(suiteName)}`}`;
}

/** One POSIX shell word: as is when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./,:@%+=-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A Content-Disposition header for a download of `fileName`: an ASCII fallback and the exact name (RFC 6266). */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** The download route of a suite's YAML: the newest version, or the one given. */
export function suiteYamlUrl(suiteId: string, versionId?: string): string {
  return `/api/suites/${encodeURIComponent(suiteId)}/yaml${versionId ? `?version=${encodeURIComponent(versionId)}` : ""}`;
}
