import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

// The name `--store` files a suite under (the store's suites are unique by
// name: lib/store/suite-store.ts). A file in a git work tree is named by its
// path from the tree's root, with / between folders, whatever folder the
// command runs from: `evals/support.yaml` run from the repository's root and
// `support.yaml` run from `evals/` are one suite, and CI and a laptop agree.
// Outside a git work tree the path as given is all there is to go by.

function gitRoot(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    // A worktree or submodule has a .git file, a repository a .git folder: either marks the root.
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const real = (file: string) => {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
};

/** The stored suite name of the suite file `config` (as given on the command line, relative to `cwd`). */
export function suiteNameOf(input: { config: string; cwd: string }): string {
  const file = real(path.resolve(input.cwd, input.config));
  const root = gitRoot(path.dirname(file));
  if (root === undefined) return path.normalize(input.config);
  return path.relative(real(root), file).split(path.sep).join("/");
}
