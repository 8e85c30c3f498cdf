// The file a dashboard suite is outside the dashboard: the name its download
// is saved under. One definition for the download (app/api/suites/[id]/yaml),
// the commands the pages print, and the file a dashboard run is graded as
// (so that a review's rerun command names the file the download saves).

const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;

/**
 * The file a suite's YAML downloads as: its name's last path segment, with
 * what file systems refuse replaced, and `.yaml` added when it has no YAML
 * extension (so that editors and the CLI's users see a YAML file).
 */
export function suiteFileName(suiteName: string): string {
  const base = suiteName.split(/[/\\]/).filter(Boolean).pop() ?? "";
  const safe = base.replace(UNSAFE_IN_FILE_NAMES, "_").trim();
  if (safe === "" || safe === "." || safe === "..") return "suite.yaml";
  return /\.ya?ml$/i.test(safe) ? safe : `${safe}.yaml`;
}
