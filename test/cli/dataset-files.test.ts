import { open } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { CalibrationResult } from "../../lib/engine/results/trust";
import { candidateOf, makeWorkspace, startFakeJudge, yaml } from "./cli-harness";

// Datasets from CSV and JSONL files through the real CLI: the items graded
// are the file's rows under the column mapping, and a broken file is a
// located error (the dataset file's own line and column) with exit 2.

const SUITE = (file: string, columns: string) =>
  yaml(
    "datasets:",
    "  support:",
    `    file: ${file}`,
    `    columns: ${columns}`,
    "evals:",
    "  - name: support answers",
    "    candidates: { dataset: support }",
    '    prompt: "Q: {{input}} (see {{context}})"',
    '    rubric: "Answers the question."',
  );

// A spreadsheet export: BOM, CRLF, a quoted comma, doubled quotes and a line break inside a field.
const CSV =
  '\uFEFFticket,question,answer,doc\r\nT1,"Reset, please?","Use the ""reset"" link\r\non the sign-in page.",Docs A\r\nT2,Refund?,Within 30 days.,Docs B\r\n';

describe.concurrent("datasets from CSV and JSONL files", { timeout: 120_000 }, () => {
  test("eval grades each CSV row as its own result, with its quoted and multi-line answer intact", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "ok", score: 0.9 } }),
    });
    await ws.write("data/support.csv", CSV);
    await ws.write(
      "suite.yaml",
      SUITE(
        "data/support.csv",
        "{ id: ticket, input: question, expected_output: answer, context: doc }",
      ),
    );
    const validate = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(validate.stdout, validate.stderr).toBe("suite.yaml: valid (1 eval, 2 cells)\n");
    const run = await ws.cli(
      ["eval", "--config", "suite.yaml", "--reporter", "json,csv", "--output", "out"],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(judge.api.requests.map(candidateOf).sort()).toEqual([
      'Use the "reset" link\r\non the sign-in page.',
      "Within 30 days.",
    ]);
    const report = await ws.readReport("out/report.json");
    expect(report.results.map((r) => [r.name, r.candidate.prompt])).toEqual([
      ["support answers [item=T1]", "Q: Reset, please? (see Docs A)"],
      ["support answers [item=T2]", "Q: Refund? (see Docs B)"],
    ]);
    // The csv reporter: one row per result, its item and score.
    const csv = (await ws.read("out/report.csv")).split("\r\n");
    expect(csv[0]).toMatch(
      /^id,eval,name,item,agent,model,prompt_index,prompt,status,vacuous,skip_kind,score,threshold,/,
    );
    expect(
      csv
        .slice(1, 3)
        .map((line) =>
          line
            .split(",")
            .slice(3, 4)
            .concat(line.split(",").slice(8, 9), line.split(",").slice(11, 12)),
        ),
    ).toEqual([
      ["T1", "passed", "0.9"],
      ["T2", "passed", "0.9"],
    ]);
  });

  test("a CSV's label column is the human label calibrate compares the judge with", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const judge = await startFakeJudge(onTestFinished, {
      respond: () => ({ verdict: { reasoning: "fine", score: 0.6 } }),
    });
    await ws.write(
      "data/labels.csv",
      "ticket,answer,grade\r\nT1,Go to Settings > Export.,1\r\nT2,It depends.,0\r\nT3,Unlabelled.,\r\n",
    );
    await ws.write(
      "suite.yaml",
      yaml(
        "datasets:",
        "  answers:",
        "    file: data/labels.csv",
        "    columns: { id: ticket, expected_output: answer, label: { column: grade, name: actionable } }",
        "evals:",
        "  - name: support answers",
        '    response: "Use the reset link."',
        "    dataset: answers",
        "    rubric:",
        "      criteria:",
        '        - { name: actionable, description: "Tells the user what to do." }',
      ),
    );
    const run = await ws.cli(
      ["calibrate", "--config", "suite.yaml", "--output", "out/calibration.json"],
      judge.env,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(await ws.read("out/calibration.json")) as CalibrationResult;
    expect(result.criteria[0]!.items.map((i) => [i.source, i.id, i.label, i.judged])).toEqual([
      ["dataset", "T1", 1, 0.6],
      ["dataset", "T2", 0, 0.6],
    ]);
  });

  test("the same mapping reads a JSONL file", async ({ onTestFinished }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "data/support.jsonl",
      '{"ticket":"T1","question":"Reset?","answer":"Use the link.","doc":["Docs A"]}\n{"ticket":"T2","question":"Refund?","answer":"30 days.","doc":"Docs B"}\n',
    );
    await ws.write(
      "suite.yaml",
      SUITE(
        "data/support.jsonl",
        "{ id: ticket, input: question, expected_output: answer, context: doc }",
      ),
    );
    const explain = await ws.cli(["eval", "--explain", "--config", "suite.yaml"]);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain("support answers [item=T2]");
    expect(explain.stdout).toContain('dataset "support" item "T1"');
  });

  test("broken files: each problem at file:line:column of the dataset file, exit 2, no stack trace", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    const cases: [string, string, string, RegExp][] = [
      [
        "quote.csv",
        'ticket,answer\nT1,"fine"\nT2,"never closed\nT3,x\n',
        "{ id: ticket, expected_output: answer }",
        /^data\/quote\.csv:3:2: error: dataset "support": a quoted field that starts in this record is never closed/m,
      ],
      [
        "missing.csv",
        "ticket,reply\nT1,x\n",
        "{ id: ticket, expected_output: answer }",
        /^data\/missing\.csv:1:1: error: dataset "support": columns\.expected_output names column "answer", which the header does not have; its columns: "ticket", "reply"$/m,
      ],
      [
        "label.csv",
        'ticket,answer,grade\nT1,"a\nb",0.5\nT2,x,7\n',
        "{ id: ticket, expected_output: answer, label: grade }",
        /^data\/label\.csv:4:3: error: dataset "support": row 2, column "grade" is 7; a label's score is in 0\.\.1$/m,
      ],
      [
        "lines.jsonl",
        '{"ticket":"T1","answer":"x"}\n"just a string"\n',
        "{ id: ticket, expected_output: answer }",
        /^data\/lines\.jsonl:2:1: error: dataset "support": each line is one JSON object \(an item\); this one is a string$/m,
      ],
    ];
    for (const [file, text, columns, expected] of cases) {
      await ws.write(`data/${file}`, text);
      await ws.write(`${file}.yaml`, SUITE(`data/${file}`, columns));
      for (const command of [["validate"], ["eval"]]) {
        const run = await ws.cli([...command, "--config", `${file}.yaml`]);
        expect(run.stderr).toMatch(expected);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.code).toBe(2);
      }
    }
  });

  test("a ReferenceDataset JSON past the size ceiling is refused before it is read; a CSV as large is streamed to a located error", async ({
    onTestFinished,
  }) => {
    const ws = await makeWorkspace(onTestFinished);
    await ws.write(
      "suite.yaml",
      SUITE("data/huge.json", "{ expected_output: answer }").replace(
        "    columns: { expected_output: answer }\n",
        "",
      ),
    );
    await ws.write("data/huge.json", "{");
    // A sparse file: 40 MiB on paper, nothing on disk.
    const handle = await open(path.join(ws.dir, "data/huge.json"), "r+");
    await handle.truncate(40 * 1024 * 1024);
    await handle.close();
    const run = await ws.cli(["validate", "--config", "suite.yaml"]);
    expect(run.stderr).toContain(
      'suite.yaml:1:1: error: cannot read dataset "support" from data/huge.json: the file is 41,943,040 bytes; a data file holds at most 33,554,432',
    );
    expect(run.code).toBe(2);
    // A CSV is read as a stream (it may be several GB): its 40 MiB value is refused where it is.
    await ws.write("csv.yaml", SUITE("data/huge.csv", "{ expected_output: answer }"));
    await ws.write("data/huge.csv", "answer\n");
    const csv = await open(path.join(ws.dir, "data/huge.csv"), "r+");
    await csv.truncate(40 * 1024 * 1024);
    await csv.close();
    const streamed = await ws.cli(["validate", "--config", "csv.yaml"]);
    expect(streamed.stderr).toContain(
      'data/huge.csv:2:1: error: dataset "support": row 1, column "answer" is 41,943,033 characters; a value holds at most 1,000,000',
    );
    expect(streamed.code).toBe(2);
  });
});
