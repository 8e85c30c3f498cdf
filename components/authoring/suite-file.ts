// A suite as a file outside the dashboard: the name its download is saved
// under, and that name as one shell word, for the commands the pages print.

const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;

/** The file a suite's YAML downloads as: its name's last path segment, with what file systems refuse replaced. */
export function suiteFileName(suiteName: string): string {
  const base = suiteName.split(/[/\\]/).filter(Boolean).pop() ?? "";
  const safe = base.replace(UNSAFE_IN_FILE_NAMES, "_").trim();
  return safe === "" || safe === "." || safe === ".." ? "suite.yaml" : safe;
}

/**
 * The path to give `--config` so that `--store` files the result under this
 * very suite (the CLI names a stored suite by the path as given): the suite's
 * name, unless it cannot be a path at all.
 */
export function suiteConfigPath(suiteName: string): string {
  return /[\u0000-\u001f\u007f]/.test(suiteName) || suiteName.trim() === "" ? suiteFileName(suiteName) : suiteName;
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
