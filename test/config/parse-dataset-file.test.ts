import { describe, expect, it } from "vitest";
import { parseDatasetFile } from "../../lib/config/parse-dataset-file";
import { LIMITS } from "../../lib/config/limits";
import { loadSuite } from "../../lib/config/load-suite";

// CSV and JSONL datasets: the items a user's spreadsheet export or log file
// gives, and every problem at the line and column to fix.

function items(
  text: string,
  file: string,
  columns?: Parameters<typeof parseDatasetFile>[0]["columns"],
) {
  const result = parseDatasetFile({ text, file, ...(columns ? { columns } : {}) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.items;
}

function problems(
  text: string,
  file: string,
  columns?: Parameters<typeof parseDatasetFile>[0]["columns"],
) {
  const result = parseDatasetFile({ text, file, ...(columns ? { columns } : {}) });
  if (result.ok) throw new Error("expected problems");
  return result.problems;
}

describe("CSV datasets", () => {
  it("reads quotes, doubled quotes, line breaks inside fields, a BOM and CRLF line ends", () => {
    const text =
      '\uFEFFticket,question,answer,doc\r\nT1,"Reset, please?","Say ""reset"" on the\r\nsign-in page.",Docs A\r\n\r\nT2,Refund?,Within 30 days.,\r\n';
    expect(
      items(text, "qa.csv", {
        id: "ticket",
        input: "question",
        expected_output: "answer",
        context: "doc",
      }),
    ).toEqual([
      {
        id: "T1",
        input: "Reset, please?",
        expectedOutput: 'Say "reset" on the\r\nsign-in page.',
        context: ["Docs A"],
        annotations: [],
      },
      { id: "T2", input: "Refund?", expectedOutput: "Within 30 days.", annotations: [] },
    ]);
  });

  it("without columns: the item's own field names; an absent id is the row number; a label becomes a human annotation", () => {
    const text = "input,expected_output,label\nQ1,A1,0.8\nQ2,A2,FAIL\nQ3,A3,\n";
    expect(items(text, "qa.csv")).toEqual([
      {
        id: "1",
        input: "Q1",
        expectedOutput: "A1",
        annotations: [{ name: "score", score: 0.8, annotatorType: "human" }],
      },
      {
        id: "2",
        input: "Q2",
        expectedOutput: "A2",
        annotations: [{ name: "score", label: "fail", annotatorType: "human" }],
      },
      { id: "3", input: "Q3", expectedOutput: "A3", annotations: [] },
    ]);
    expect(
      items("a,verdict\nx,pass\n", "d.csv", {
        expected_output: "a",
        label: { column: "verdict", name: "accuracy" },
      })[0]!.annotations,
    ).toEqual([{ name: "accuracy", label: "pass", annotatorType: "human" }]);
  });

  it("a mapped column the header lacks is an error at the header, naming the columns it has", () => {
    expect(
      problems("id,question,reply\n1,Q,A\n", "qa.csv", {
        input: "question",
        expected_output: "answer",
      }),
    ).toEqual([
      {
        line: 1,
        column: 1,
        message:
          'columns.expected_output names column "answer", which the header does not have; its columns: "id", "question", "reply"',
      },
    ]);
  });

  it("an unterminated quote is at the line its record starts, and the field it opens in", () => {
    const text = 'id,expected_output\n1,"two\nlines"\n2,ok\n3,"never closed\n4,more\n';
    expect(problems(text, "qa.csv")).toEqual([
      {
        line: 5,
        column: 2,
        message: 'a quoted field that starts in this record is never closed (no matching ")',
      },
    ]);
  });

  it("a stray quote and a row with the wrong number of fields are located at row and field", () => {
    expect(problems('id,expected_output\n1,ok\n2,he said "hi"\n', "qa.csv")).toEqual([
      {
        line: 3,
        column: 2,
        message:
          'a " inside an unquoted field; quote the whole field and double every quote inside it ("")',
      },
    ]);
    expect(problems("id,expected_output\n1,ok\n2,ok,extra\n", "qa.csv")[0]).toMatchObject({
      line: 3,
      message: "this row has 3 fields; the header has 2",
    });
  });

  it("a bad label is at its row and column, after a multi-line field", () => {
    const text = 'id,expected_output,label\n1,"a\nb\nc",0.5\n2,fine,1.5\n3,fine,maybe\n';
    expect(problems(text, "qa.csv")).toEqual([
      { line: 5, column: 3, message: 'row 2, column "label" is 1.5; a label\'s score is in 0..1' },
      {
        line: 6,
        column: 3,
        message:
          'row 3, column "label" is "maybe"; a label is a score in 0..1 or pass, partial or fail',
      },
    ]);
  });

  it("an empty file and a duplicated header column are errors", () => {
    expect(problems("", "qa.csv")[0]!.message).toContain("the file is empty");
    expect(problems("id,id\n1,2\n", "qa.csv")).toEqual([
      { line: 1, column: 2, message: 'column "id" appears twice in the header (also column 1)' },
    ]);
  });

  it("a header past the column ceiling is an error at the first column past it", () => {
    const header = Array.from({ length: LIMITS.datasetColumns + 5 }, (_, i) => `c${i}`).join(",");
    expect(problems(`${header}\n`, "wide.csv")).toEqual([
      {
        line: 1,
        column: 1_001,
        message: "the header has 1,005 columns; a CSV dataset has at most 1,000",
      },
    ]);
  });

  it("more rows than a dataset holds is an error at the first row past the limit, without parsing the rest", () => {
    const rows = Array.from({ length: LIMITS.datasetItems + 50 }, (_, i) => `r${i},x`);
    const found = problems(`id,expected_output\n${rows.join("\n")}\n`, "big.csv");
    expect(found).toEqual([
      {
        line: LIMITS.datasetItems + 2,
        column: 1,
        message: "a dataset has at most 10,000 items; this is row 10,001",
      },
    ]);
  });
});

describe("JSONL datasets", () => {
  it("maps fields, takes a list or a string as context, skips blank lines and a BOM", () => {
    const text =
      '\uFEFF{"q":"Q1","a":"A1","ctx":["c1","c2"],"n":7}\r\n\n{"q":"Q2","a":"A2","ctx":"c3","n":8}\n';
    expect(
      items(text, "qa.jsonl", { id: "n", input: "q", expected_output: "a", context: "ctx" }),
    ).toEqual([
      { id: "7", input: "Q1", expectedOutput: "A1", context: ["c1", "c2"], annotations: [] },
      { id: "8", input: "Q2", expectedOutput: "A2", context: ["c3"], annotations: [] },
    ]);
  });

  it("a line that is not JSON, not an object, or lacks a mapped field is an error at that line", () => {
    const text = ['{"a":"ok"}', '{"a": "x",}', "[1,2]", '{"b":"no a"}', '{"a":{"deep":1}}'].join(
      "\n",
    );
    expect(problems(text, "qa.jsonl", { expected_output: "a" })).toEqual([
      { line: 2, column: 11, message: expect.stringMatching(/^not valid JSON: /) },
      { line: 3, column: 1, message: "each line is one JSON object (an item); this one is a list" },
      {
        line: 4,
        column: 1,
        message: 'columns.expected_output names field "a", which this object does not have',
      },
      { line: 5, column: 1, message: 'field "a" is an object, not text' },
    ]);
  });
});

describe("the datasets: block", () => {
  const load = (...lines: string[]) =>
    loadSuite({
      text: `${lines.join("\n")}\nevals:\n  - name: e\n    candidates: { dataset: qa }\n    rubric: "Correct."\n`,
      file: "suite.yaml",
    });

  it("keeps the format and the mapping for the CLI to read the file with", () => {
    const result = load(
      "datasets:",
      "  qa:",
      "    file: data/qa.txt",
      "    format: csv",
      "    columns: { input: question, expected_output: answer, label: { column: grade, name: accuracy } }",
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value.datasets?.qa).toMatchObject({
      file: "data/qa.txt",
      format: "csv",
      columns: {
        input: "question",
        expected_output: "answer",
        label: { column: "grade", name: "accuracy" },
      },
      unread: true,
    });
  });

  it("columns: on a ReferenceDataset JSON file, or without a file, is an error at columns:", () => {
    const json = load("datasets:", "  qa:", "    file: qa.json", "    columns: { input: q }");
    expect(json.ok ? [] : json.issues.map((i) => [i.line, i.message])).toEqual([
      [4, expect.stringContaining("columns: maps a CSV or JSONL file")],
    ]);
    const inline = load(
      "datasets:",
      "  qa:",
      "    columns: { input: q }",
      "    items: [{ expected_output: a }]",
    );
    expect(inline.ok ? [] : inline.issues.map((i) => [i.line, i.message])).toEqual([
      [3, expect.stringContaining("columns: describes a dataset file")],
    ]);
  });
});

describe("text Postgres cannot store, in a dataset file", () => {
  it.each([
    ["a raw NUL in a CSV field", "id,input,expected_output\nT1,q,ans\u0000wer\n", "qa.csv", 2, 9],
    [
      "a \\u0000 escape in a JSONL line",
      '{"id":"a","input":"q","expected_output":"ok"}\n{"id":"b","input":"q\\u0000","expected_output":"ok"}\n',
      "qa.jsonl",
      2,
      21,
    ],
    [
      "an unpaired surrogate in a ReferenceDataset",
      '{"id":"d","name":"d","items":[{"id":"a","input":"q","expected_output":"\\ud800"}]}',
      "qa.json",
      1,
      72,
    ],
  ])("%s: a problem at the character, naming the item", (_, text, file, line, column) => {
    const [problem, ...rest] = problems(text, file);
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ line, column });
    expect(problem!.message).toMatch(
      /^item \d+ \(\w+\) contains (a NUL character \(\\0\)|an unpaired surrogate \(\\ud800\)), which the run history \(Postgres text\) cannot store; remove it$/,
    );
  });
});

describe("expected_outputs in CSV and JSONL datasets", () => {
  it("a CSV takes several outputs from the columns mapped to expected_outputs, a cell holding one or a JSON list", () => {
    const text =
      'id,answer,alt,alt2\nq1,Paris,"[""paris"", ""PARIS""]",City of Paris\nq2,Rome,[1] Rome,\n';
    expect(
      items(text, "capitals.csv", { expected_output: "answer", expected_outputs: ["alt", "alt2"] }),
    ).toEqual([
      {
        id: "q1",
        expectedOutput: "Paris",
        expectedOutputs: ["paris", "PARIS", "City of Paris"],
        annotations: [],
      },
      // Text that only starts like a list is one output; an empty cell is none.
      { id: "q2", expectedOutput: "Rome", expectedOutputs: ["[1] Rome"], annotations: [] },
    ]);
  });

  it("a JSONL item's expected_outputs field is a list of strings; a column named in columns: must exist", () => {
    const text =
      '{"id":"q1","expected_output":"Paris","expected_outputs":["paris","City of Paris"]}\n{"id":"q2","expected_output":"Rome"}\n';
    expect(items(text, "capitals.jsonl")).toEqual([
      {
        id: "q1",
        expectedOutput: "Paris",
        expectedOutputs: ["paris", "City of Paris"],
        annotations: [],
      },
      { id: "q2", expectedOutput: "Rome", annotations: [] },
    ]);
    expect(problems(text, "capitals.jsonl", { expected_outputs: "alts" })).toEqual([
      {
        line: 1,
        column: 1,
        message: 'columns.expected_outputs names field "alts", which this object does not have',
      },
      {
        line: 2,
        column: 1,
        message: 'columns.expected_outputs names field "alts", which this object does not have',
      },
    ]);
  });
});
