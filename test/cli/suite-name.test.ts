import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// One suite file is one stored suite, whichever folder `eval --store` runs
// from: in a git work tree it is named by its path from the tree's root.

const database = useTestDatabase();

describe("the stored suite's name", () => {
  it(
    "is the file's path from its git root: run from the root and from its own folder, one suite with two runs",
    { timeout: 120_000 },
    async ({ onTestFinished }) => {
      const ws = await makeWorkspace(onTestFinished);
      const judge = await startFakeJudge(onTestFinished, {
        respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
      });
      await mkdir(path.join(ws.dir, ".git"));
      await ws.write(
        "evals/two-folders.yaml",
        yaml(
          "evals:",
          "  - name: two folders",
          '    response: "An answer."',
          '    rubric: "Answers (two folders)."',
        ),
      );
      const env = { ...judge.env, DATABASE_URL: database.url };
      const fromRoot = await ws.cli(["eval", "--config", "evals/two-folders.yaml"], env);
      expect(fromRoot.code, fromRoot.stderr).toBe(0);
      const fromFolder = await runCli(["eval", "--config", "two-folders.yaml"], {
        cwd: path.join(ws.dir, "evals"),
        env,
      });
      expect(fromFolder.code, fromFolder.stderr).toBe(0);
      const suites = await database.prisma.suite.findMany({
        where: { name: { contains: "two-folders" } },
        select: { name: true, _count: { select: { runs: true } } },
      });
      expect(suites).toEqual([{ name: "evals/two-folders.yaml", _count: { runs: 2 } }]);
    },
  );
});
