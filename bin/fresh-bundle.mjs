// Whether a bundle in dist/ is newer than every TypeScript source under lib/
// and package.json: then it is run as is; otherwise the TypeScript runs
// through tsx, so a fresh edit is never shadowed by a stale build.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

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

/**
 * Runs a thread's entry: `dist/offthread/<name>.mjs` when it is fresh, else its TypeScript `source`
 * (a path from the project's root) through tsx.
 */
export async function runFreshOrSource(name, source) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const bundle = `${root}dist/offthread/${name}.mjs`;
  if (bundleIsFresh(root, bundle)) {
    await import(bundle);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    await import(`${root}${source}`);
  }
}
