import { describe, expect, it } from "vitest";
import type { EvalResult, Report } from "../../lib/engine/results/report";
import type { Transcript } from "../../lib/engine/results/transcript";
import { REPORTER_NAMES, REPORTERS } from "../../lib/report/registry";
import { redactDeep } from "../../lib/engine/results/redact-secrets";
import { buildSampleReport, sampleResults, summarizeResults } from "../support/sample-report";

// A live result's transcript in the reports: structured in JSON, step by step
// in html (escaped), as the judge read it in md, line by line in pretty; and,
// being tool output, treated as hostile like every other report text.

const TRANSCRIPT: Transcript = {
  server: "calendar",
  model: "claude-haiku-4-5",
  stop: "error",
  turns: 1,
  maxTurns: 6,
  stopNote: 'server "calendar" exited, during tool call "create_event"',
  entries: [
    { kind: "user", text: "Book <b>Alice</b> for Tuesday." },
    {
      kind: "tool_call",
      name: "create_event",
      arguments: { title: "<script>alert(1)</script>" },
      result: "Created evt_9 <img src=x onerror=alert(1)>",
      isError: false,
      truncatedFrom: 9000,
      durationMs: 12,
    },
  ],
};

function liveReport(transcript: Transcript = TRANSCRIPT): Report {
  const failed = sampleResults().find((r) => r.status === "failed")!;
  const live: EvalResult = {
    ...failed,
    id: "live booking",
    name: "live booking",
    eval: "live booking",
    reason: 'live run failed: server "calendar" exited, during tool call "create_event"',
    candidate: {
      source: "live",
      server: "calendar",
      prompt: "Book <b>Alice</b> for Tuesday.",
      transcript,
      agent: {
        model: "claude-haiku-4-5",
        turns: 1,
        maxTurns: 6,
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
        costUsd: 0,
        calls: [],
      },
      serverStderr: "fatal: backend down\nkey sk-ant-api03-abcdefghijklmnopqrstuv\n",
    },
  };
  const results = [live];
  return buildSampleReport({ results, summary: summarizeResults(results) });
}

describe("live transcripts in reports", () => {
  const report = redactDeep(liveReport());

  it("json keeps the transcript structured", () => {
    const parsed = JSON.parse(REPORTERS.json.render(report, { color: false })) as Report;
    expect(parsed.results[0]!.candidate.transcript).toEqual(TRANSCRIPT);
    expect(parsed.results[0]!.candidate.serverStderr).toBe("fatal: backend down\nkey [REDACTED]\n");
  });

  it("html shows every step, escaped, with the truncation marker and the server's stderr", () => {
    const page = REPORTERS.html.render(report, { color: false });
    expect(page).toContain("<h4>Transcript</h4>");
    expect(page).toContain("server calendar · agent claude-haiku-4-5 · 1 of 6 turns");
    expect(page).toContain("<b>Tool call 1: create_event</b>");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).toContain(
      "Created evt_9 &lt;img src=x onerror=alert(1)&gt;\n[… truncated: showing the first 42 of 9000 characters]",
    );
    expect(page).not.toMatch(/<script|<img|<b>Alice/);
    expect(page).toContain(
      "<h4>Server stderr</h4><pre>fatal: backend down\nkey [REDACTED]\n</pre>",
    );
  });

  it("md shows the transcript as the judge read it, fenced", () => {
    const md = REPORTERS.md.render(report, { color: false });
    expect(md).toContain("**Transcript (server calendar, agent claude-haiku-4-5, 1 of 6 turns)**");
    expect(md).toContain(
      '```text\nUser:\nBook <b>Alice</b> for Tuesday.\n\nTool call 1: create_event {"title":"<script>alert(1)</script>"}\nTool result 1:\nCreated evt_9 <img src=x onerror=alert(1)>\n[… truncated: showing the first 42 of 9000 characters]\n\n[server "calendar" exited, during tool call "create_event"]\n```',
    );
    expect(md).toContain("**Server stderr**");
  });

  it("pretty lists the steps under the failed result, one line each", () => {
    const text = REPORTERS.pretty.render(report, { color: false });
    expect(text).toContain("transcript (server calendar, agent claude-haiku-4-5, 1 of 6 turns):");
    expect(text).toContain(
      'tool create_event {"title":"<script>alert(1)</script>"} → Created evt_9 <img src=x onerror=alert(1)> [… truncated: showing the first 42 of 9000 characters]',
    );
    expect(text).toMatch(
      /server stderr \(last lines\):\n\s+fatal: backend down\n\s+key \[REDACTED\]/,
    );
  });
});

// Issue 13 item 9: tool output is often JSON, quoted into the transcript with
// its escapes, so a key follows `\n` rather than a space. Rendered through the
// registry from an unredacted report, as the CLI writes report.json and report.html.
describe("a key in a live transcript's JSON-escaped tool output", () => {
  const key = `sk-ant-api03-${"Zq8".repeat(15)}`;
  const github = `ghp_${"Lm4".repeat(12)}`;
  const transcript: Transcript = {
    ...TRANSCRIPT,
    entries: [
      { kind: "user", text: "Run the deploy script." },
      {
        kind: "tool_call",
        name: "shell",
        arguments: { command: "deploy --verbose" },
        result: `{"stdout": "x\\n${key}\\nfetching https://git.example.com/r?token%3D${github}", "exit": 0}`,
        isError: false,
        durationMs: 5,
      },
      { kind: "final", text: `Done; the log said x\\n${key}` },
    ],
  };

  for (const name of REPORTER_NAMES) {
    it(`${name} shows neither key`, () => {
      const text = REPORTERS[name].render(liveReport(transcript), { color: false });
      expect(text).not.toContain(key.slice(13));
      expect(text).not.toContain(github.slice(4));
    });
  }
});
