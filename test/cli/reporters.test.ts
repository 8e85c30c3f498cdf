import { readdir } from "node:fs/promises";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, test } from "vitest";
import type { FakeRequest, FakeReply } from "../support/fake-messages-api";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// --reporter and --output as a CI job uses them: machine formats land in files
// (one file, or a folder of report.<ext> when several are asked for), the
// pretty summary stays on the terminal, and no credential a judge quoted ever
// reaches a report.

const SUITE = yaml(
  "judge: { model: claude-haiku-4-5 }",
  "evals:",
  "  - name: keeps secrets",
  '    response: "Here is the config you asked for."',
  "    rubric:",
  "      criteria:",
  "        - { name: no credentials, description: Never reveals a credential. }",
  "  - name: answers the question",
  '    response: "Invoice 42 totaled $120.00."',
  '    rubric: "States the total."',
);

const ANTHROPIC_KEY = "sk-ant-api03-Zq8xV2mP4kL9wR7tY1uI3oA5sD6fG0hJ-kLmNoPqRsTu";
const BEARER = "Bearer abc123def456ghi789jkl012";
const LEAKY_REASONING = `The candidate leaks a credential: it prints ${ANTHROPIC_KEY} and sends "Authorization: ${BEARER}" to the API.`;

/** The leaky eval fails with a reasoning that quotes credentials; the other one passes. */
function leakyJudge(request: FakeRequest): FakeReply {
  return candidateOf(request).startsWith("Here is the config")
    ? { verdict: { reasoning: LEAKY_REASONING, score: 0.1 } }
    : { verdict: { reasoning: "states the total", score: 1 } };
}

function expectNoSecrets(text: string, where: string) {
  expect(text, where).not.toContain("sk-ant-api03");
  expect(text, where).not.toContain("abc123def456");
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });

describe.concurrent("reporters and --output", () => {
  test("--reporter json,junit --output DIR writes DIR/report.json and DIR/report.xml", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: leakyJudge });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "json,junit", "--output", "reports"],
      judge.env,
    );

    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^wrote json report to reports\/report\.json$/m);
    expect(run.stderr).toMatch(/^wrote junit report to reports\/report\.xml$/m);
    expect((await readdir(`${ws.dir}/reports`)).sort()).toEqual(["report.json", "report.xml"]);

    const report = await ws.readReport("reports/report.json");
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ["keeps secrets", "failed"],
      ["answers the question", "passed"],
    ]);
    const junit = xml.parse(await ws.read("reports/report.xml")) as {
      testsuites: {
        testsuite: {
          tests: string;
          failures: string;
          testcase: { name: string; failure?: unknown }[];
        };
      };
    };
    const suite = junit.testsuites.testsuite;
    expect(suite).toMatchObject({ tests: "2", failures: "1" });
    expect(suite.testcase.map((c) => [c.name, c.failure !== undefined])).toEqual([
      ["keeps secrets", true],
      ["answers the question", false],
    ]);
  });

  test("--reporter junit --output file.xml writes that one file and nothing on stdout", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: leakyJudge });
    await ws.write("suite.yaml", SUITE);
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "junit", "--output", "ci/junit.xml"],
      judge.env,
    );

    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^wrote junit report to ci\/junit\.xml$/m);
    expect(await readdir(`${ws.dir}/ci`)).toEqual(["junit.xml"]);
    // An absolute --output is named as given, not as a path relative to where the command ran.
    const absolute = `${ws.dir}/ci/again.ndjson`;
    const again = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "ndjson", "--output", absolute],
      judge.env,
    );
    expect(again.stderr).toContain(`wrote ndjson report to ${absolute}\n`);
    const text = await ws.read("ci/junit.xml");
    expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    expect(text).toMatch(/<testcase classname="keeps secrets" name="keeps secrets"/);
    expectNoSecrets(text, "junit file");
  });

  test("credentials in a judge's reasoning reach no report, in any of the nine formats", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, { respond: leakyJudge });
    await ws.write("suite.yaml", SUITE);
    const machine = ["json", "junit", "md", "html", "sarif", "gitlab", "ndjson", "tap"];
    const [toFiles, toStdout] = await Promise.all([
      ws.cli(
        [
          "eval",
          "--config",
          "suite.yaml",
          "--reporter",
          ["pretty", ...machine].join(","),
          "--output",
          "out",
        ],
        judge.env,
      ),
      ws.cli(
        [
          "eval",
          "--config",
          "suite.yaml",
          "--reporter",
          "pretty,json,junit,md,html,sarif,gitlab,ndjson,tap",
        ],
        judge.env,
      ),
    ]);
    expect(toFiles.code).toBe(1);
    expect(toStdout.code).toBe(1);
    // The stand-in did send the secrets, once per run.
    expect(judge.api.requests).toHaveLength(4);

    expectNoSecrets(toFiles.stdout, "pretty");
    expectNoSecrets(toFiles.stderr, "stderr");
    const files = (await readdir(`${ws.dir}/out`)).sort();
    // json and gitlab share .json: gitlab's is named by its format, json keeps report.json.
    expect(files).toEqual([
      "report.gitlab.json",
      "report.html",
      "report.json",
      "report.md",
      "report.ndjson",
      "report.sarif",
      "report.tap",
      "report.xml",
    ]);
    for (const file of files) expectNoSecrets(await ws.read(`out/${file}`), file);
    // The reasoning itself is kept, with only the credentials masked.
    for (const file of ["report.json", "report.xml", "report.html"]) {
      const text = await ws.read(`out/${file}`);
      expect(text, file).toMatch(/The candidate leaks a credential: it prints \[REDACTED\]/);
    }

    expectNoSecrets(toStdout.stdout, "all nine formats on stdout");
    expectNoSecrets(toStdout.stderr, "stderr");
    expect(toStdout.stdout).toContain('"name": "rubric-studio"'); // json
    expect(toStdout.stdout).toContain('"check_name"'); // gitlab
    expect(toStdout.stdout).toMatch(/^TAP version 1[34]$/m); // tap
  });
});
