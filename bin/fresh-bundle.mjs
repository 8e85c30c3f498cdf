// Whether a bundle in dist/ is newer than every TypeScript source under lib/
// and package.json: then it is run as is; otherwise the caller runs the
// TypeScript through tsx, so a fresh edit is never shadowed by a stale build.
import { readdirSync, statSync } from "node:fs";

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `root` ends with a slash; `bundle` is an absolute path. */
export function bundleIsFresh(root, bundle) {
  try {
    return (
      statSync(bundle).mtimeMs >=
      Math.max(newestSource(`${root}lib`), statSync(`${root}package.json`).mtimeMs)
    );
  } catch {
    return false;
  }
}
