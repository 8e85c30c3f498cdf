import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { makeWorkspace, yaml } from "./cli-harness";

// `rubric-studio validate`: a user fixes a suite from these lines alone, so
// each problem must come out as `file:line:column: error: message` pointing
// at the line that has it.

const GUIDE = new URL("../fixtures/guide/", import.meta.url);

/** `file:line:column: error: message` lines of stderr, parsed. */
function issuesOf(stderr: string) {
  return stderr
    .split("\n")
    .map((line) => /^(.+?):(\d+):(\d+): error: (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: m[1], line: Number(m[2]), column: Number(m[3]), message: m[4]! }));
}

/** The issue reported on `line`, failing the test when there is none. */
function issueAt(issues: ReturnType<typeof issuesOf>, line: number) {
  const found = issues.filter((i) => i.line === line);
  expect(found, `an issue on line ${line}; got ${JSON.stringify(issues)}`).toHaveLength(1);
  return found[0]!;
}

describe.concurrent("rubric-studio validate", () => {
  test("a valid guide suite exits 0 and says how many evals and cells it has", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    // The matrix fixture: 1 eval, 2 models × 2 prompts.
    await ws.write("suite.yaml", await readFile(new URL("15-matrix.yaml", GUIDE), "utf8"));
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("suite.yaml: valid (1 eval, 4 cells)\n");
    expect(run.code).toBe(0);
  });

  test("shape problems: every one is reported at its own line, with a hint where one helps", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "evals:", //                               1
        "  - name: typo in a field", //            2
        '    response: "hi"', //                   3
        "    rubric:", //                          4
        "      thresold: 0.5", //                  5  unknown field
        "      criteria:", //                      6
        "        - name: c1", //                   7
        "          description: d", //             8
        "          weight: 0", //                  9  weight 0
        "  - name: bad numbers", //                10
        '    response: "hi"', //                   11
        "    threshold: 1.5", //                   12 threshold 1.5
        "    rubric:", //                          13
        "      aggregation: average", //           14 unknown aggregation
        "      scale: percent", //                 15 unknown scale
        "      criteria:", //                      16
        "        - name: c1", //                   17
        "          description: d", //             18
      ),
    );
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const issues = issuesOf(run.stderr);
    expect(issues.map((i) => i.line)).toEqual([5, 9, 12, 14, 15]);
    expect(issues.every((i) => i.file === "suite.yaml")).toBe(true);

    const field = issueAt(issues, 5);
    expect(field.column).toBe(7);
    expect(field.message).toMatch(/unknown field "thresold"/);
    expect(field.message).toMatch(/did you mean "threshold"\?/);
    expect(issueAt(issues, 9).message).toMatch(/weight must be greater than 0/);
    expect(issueAt(issues, 12).message).toMatch(/threshold must be between 0 and 1/);
    expect(issueAt(issues, 14).message).toMatch(
      /unknown aggregation.*weighted_average, min, worst/,
    );
    expect(issueAt(issues, 15).message).toMatch(/unknown scale.*unit, boolean, letter/);
    expect(run.stderr).toMatch(/^suite\.yaml: 5 problems$/m);
  });

  test("reference problems: unknown ref and preset, criteria with a tree, a bad regex, a duplicate name", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "rubrics:", //                                   1
        "  helpful:", //                                 2
        "    criteria:", //                              3
        "      - name: h", //                            4
        "        description: d", //                     5
        "evals:", //                                     6
        "  - name: same name", //                        7
        '    response: "hi"', //                         8
        "    rubric: { ref: helpfull }", //              9  unknown ref
        "  - name: preset typo", //                      10
        '    response: "hi"', //                         11
        "    rubric:", //                                12
        "      preset: groundednes", //                  13 unknown preset
        "  - name: both forms", //                       14
        '    response: "hi"', //                         15
        "    rubric:", //                                16
        "      criteria:", //                            17 criteria + tree (reported where the rubric's mapping starts)
        "        - name: x", //                          18
        "          description: d", //                   19
        '          when: { regex: "a(b" }', //           20 invalid regex
        "      tree:", //                                21
        '        ask: "q?"', //                          22
        "        yes: { score: 1 }", //                  23
        "        no: { score: 0 }", //                   24
        "  - name: same name", //                        25 duplicate eval name
        '    response: "hi"', //                         26
        '    rubric: "free form"', //                    27
      ),
    );
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    const issues = issuesOf(run.stderr);
    expect(issues.map((i) => i.line)).toEqual([9, 13, 17, 20, 25]);

    const ref = issueAt(issues, 9).message;
    expect(ref).toMatch(/unknown rubric ref "helpfull"/);
    expect(ref).toMatch(/did you mean "helpful"\?/);
    const preset = issueAt(issues, 13).message;
    expect(preset).toMatch(/unknown preset "groundednes"/);
    // Every valid preset is listed, so the user need not look them up.
    for (const name of ["helpfulness", "groundedness", "safety", "format-adherence", "conciseness"])
      expect(preset).toContain(name);
    expect(issueAt(issues, 17).message).toMatch(/either criteria or tree/);
    expect(issueAt(issues, 20).message).toMatch(/invalid regex/);
    const duplicate = issueAt(issues, 25).message;
    expect(duplicate).toMatch(/duplicate eval name "same name"/);
    expect(duplicate).toMatch(/line 7/);
  });

  test("a YAML syntax error is located at the offending line", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      yaml(
        "evals:",
        "  - name: a",
        '    response: "hi"',
        '    rubric: "x" trailing words',
        "    threshold: 0.5",
      ),
    );
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.code).toBe(2);
    const issues = issuesOf(run.stderr);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: "suite.yaml", line: 4 });
    expect(issues[0]!.message).toMatch(/YAML syntax error/);
  });

  test("counts cells as eval does: dataset items (inline and from a file) and matrix.agents", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "answers.json",
      JSON.stringify({
        id: "more",
        name: "more",
        items: [
          { id: "x", expected_output: "four" },
          { id: "y", expected_output: "five" },
        ],
      }),
    );
    await ws.write(
      "suite.yaml",
      yaml(
        "servers:",
        "  files: { command: node, args: [server.mjs] }",
        "datasets:",
        "  answers:",
        "    items:",
        '      - { id: a, expected_output: "one" }',
        '      - { id: b, expected_output: "two" }',
        '      - { id: c, expected_output: "three" }',
        "  more: { file: answers.json }",
        "evals:",
        "  - name: inline items",
        "    candidates: { dataset: answers }",
        '    rubric: "Is it a number word?"',
        "  - name: file items",
        "    candidates: { dataset: more }",
        '    rubric: "Is it a number word?"',
        "  - name: agents",
        "    server: files",
        '    prompt: "List the files"',
        "    matrix: { agents: [claude-haiku-4-5, claude-sonnet-4-6] }",
        '    rubric: "Did it list them?"',
      ),
    );
    const [validate, explain] = await Promise.all([
      ws.cli(["validate", "--config", "suite.yaml"]),
      ws.cli(["eval", "--explain", "--config", "suite.yaml"]),
    ]);
    expect(validate.stdout).toBe("suite.yaml: valid (3 evals, 7 cells)\n");
    expect(validate.code).toBe(0);
    // The same count as the plan eval grades.
    expect(explain.stdout).toMatch(/^Plan: \d+ evals?, 7 cells,/m);
  });

  test("hostile files answer quickly with a located error and exit 2, never a stack trace", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const laughs = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (const [i, name] of [..."bcdefghi"].entries())
      laughs.push(`${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`);
    const cases: [string, string, RegExp][] = [
      [
        "forward alias",
        yaml("evals:", "  - name: a", "    response: *r", '    rubric: "x"', 'r: &r "hi"'),
        /^3:15: unknown alias \*r/,
      ],
      [
        "alias bomb",
        yaml(...laughs, "evals:", "  - name: a", "    response: hi", "    rubric: *i"),
        /^\d+:\d+: aliases expand this file to more than 100,000 values/,
      ],
      [
        "deep nesting",
        yaml(
          "evals:",
          "  - name: a",
          "    response: hi",
          `    rubric: ${"[".repeat(5000)}${"]".repeat(5000)}`,
        ),
        /^4:\d+: the YAML nests deeper than 64 levels/,
      ],
      [
        "huge jury",
        yaml(
          "judge: { jury: { size: 99999999 } }",
          "evals:",
          "  - name: a",
          "    response: hi",
          '    rubric: "x"',
        ),
        /^1:24: jury size must be at most 25$/,
      ],
    ];
    for (const [name, text, expected] of cases) {
      await ws.write(`${name}.yaml`, text);
      for (const args of [["validate"], ["eval", "--explain"]]) {
        const started = Date.now();
        const run = await ws.cli([...args, "--config", `${name}.yaml`]);
        expect(Date.now() - started, `${name}: ${args.join(" ")} answers quickly`).toBeLessThan(
          10_000,
        );
        expect(run.code, `${name}: ${run.stderr}`).toBe(2);
        expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+\)|Error:/);
        const issues = issuesOf(run.stderr);
        expect(issues, `${name}: ${run.stderr}`).toHaveLength(1);
        expect(
          `${issues[0]!.line}:${issues[0]!.column}: ${issues[0]!.message.replace(/^YAML (syntax )?error: /, "")}`,
        ).toMatch(expected);
      }
    }
  });

  test("a missing file exits 2 and names the file", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    const run = await ws.cli(["validate", "--config", "nowhere/suite.yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^nowhere\/suite\.yaml:1:1: error: cannot read the suite: file not found$/m,
    );
  });
});
