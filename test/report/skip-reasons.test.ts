import { describe, expect, it } from "vitest";
import { REPORTERS, REPORTER_NAMES } from "../../lib/report/registry";
import { SKIP_KINDS, skippedFields, type SkipKind } from "../../lib/engine/results/skip-kind";
import type { EvalResult } from "../../lib/engine/results/report";
import { buildSampleReport, sampleResults } from "../support/sample-report";

// Skip reasons are said once and say the right cause, in every reporter: a
// run skipped by its budget, cancelled, or interrupted. Before skips had a
// kind, --max-cost printed "skipped (budget): skipped (budget): ..." and a
// cancelled run "skipped (budget): skipped (interrupted): ...".

/** The sample results with the one skipped result skipped for `kind`, and no --max-cost budget on the run. */
function reportSkippedFor(kind: SkipKind) {
  const results: EvalResult[] = sampleResults().map((r) =>
    r.status === "skipped"
      ? { ...r, ...skippedFields(kind, "all of this eval's judge calls could be made") }
      : r,
  );
  return buildSampleReport({ results, budget: undefined });
}

/** The text a reader sees: SARIF's rule catalogue lists every rule, whatever happened, so it is left out. */
function readable(name: string, text: string): string {
  if (name !== "sarif") return text;
  const log = JSON.parse(text) as { runs: { tool?: unknown }[] };
  for (const run of log.runs) delete run.tool;
  return JSON.stringify(log);
}

const DOUBLED = /skipped \((?:budget|cancelled|interrupted)\)\W{0,4}skipped/;

describe.each(SKIP_KINDS.map((kind) => ({ kind })))("a result skipped ($kind)", ({ kind }) => {
  const others = SKIP_KINDS.filter((k) => k !== kind);

  it.each(REPORTER_NAMES.map((name) => ({ name })))(
    "$name says the cause once, and the right one",
    ({ name }) => {
      const text = readable(name, REPORTERS[name].render(reportSkippedFor(kind), { color: false }));
      expect(text).not.toMatch(DOUBLED);
      if (name === "json" || name === "ndjson") {
        expect(text).toMatch(new RegExp(`"skipKind":\\s*"${kind}"`));
        expect(text).toMatch(new RegExp(`"skippedBy":\\s*\\{\\s*"${kind}":\\s*1\\s*\\}`));
      } else {
        expect(text).toContain(`skipped (${kind})`);
      }
      for (const other of others) expect(text).not.toContain(`skipped (${other})`);
      if (kind !== "budget") expect(text.toLowerCase()).not.toContain("budget");
    },
  );
});

describe("the summaries' skipped count", () => {
  it("names the cause of every skip, and splits them when the causes differ", () => {
    const results = sampleResults();
    const skipped = results.find((r) => r.status === "skipped")!;
    const mixed = [
      ...results,
      { ...skipped, id: "b", ...skippedFields("budget", "x") },
      { ...skipped, id: "c", ...skippedFields("cancelled", "x") },
      { ...skipped, id: "d", ...skippedFields("cancelled", "x") },
    ];
    const report = buildSampleReport({ results: mixed, budget: undefined });
    const pretty = REPORTERS.pretty.render(report, { color: false });
    expect(pretty).toContain("4 skipped (2 budget, 2 cancelled)");
    expect(REPORTERS.tap.render(report, { color: false })).toContain(
      "4 skipped (2 budget, 2 cancelled)",
    );
    expect(REPORTERS.md.render(report, { color: false })).toContain(
      "skipped (2 budget, 2 cancelled) 4",
    );
  });
});
