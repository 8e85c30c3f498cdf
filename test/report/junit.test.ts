import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { junitReporter } from "../../lib/report/junit";
import { buildSampleReport, sampleResults } from "../support/sample-report";

interface Attributes {
  [key: string]: unknown;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseAttributeValue: false,
  // Decodes character references such as &#10;, which the reporter uses to keep newlines in attributes.
  htmlEntities: true,
  isArray: (name) => ["testcase", "property", "testsuite"].includes(name),
});

function parse(xml: string) {
  const doc = parser.parse(xml) as {
    testsuites: Attributes & { testsuite: (Attributes & { testcase: Attributes[] })[] };
  };
  const suite = doc.testsuites.testsuite[0];
  if (!suite) throw new Error("no <testsuite>");
  return { root: doc.testsuites, suite, cases: suite.testcase };
}

describe("junit reporter", () => {
  it("is well-formed XML with the right counts", () => {
    const xml = junitReporter.render(buildSampleReport(), { color: false });
    expect(XMLValidator.validate(xml)).toBe(true);
    const { root, suite, cases } = parse(xml);
    for (const element of [root, suite]) {
      expect(element["@tests"]).toBe("8");
      expect(element["@failures"]).toBe("1");
      expect(element["@errors"]).toBe("1");
      expect(element["@skipped"]).toBe("2");
      expect(element["@time"]).toBe("77.000");
    }
    expect(cases).toHaveLength(8);
  });

  it("names each testcase by eval (classname) and result (name), with time in seconds", () => {
    const { cases } = parse(junitReporter.render(buildSampleReport(), { color: false }));
    const cell = cases.find((c) => c["@name"] === "summary quality (claude-haiku-4-5, prompt 1)");
    expect(cell?.["@classname"]).toBe("summary quality");
    const failed = cases.find((c) => c["@name"] === "grounded answer with citations");
    expect(failed?.["@time"]).toBe("5.230");
  });

  it("puts the reason on <failure> and the criteria in its body", () => {
    const { cases } = parse(junitReporter.render(buildSampleReport(), { color: false }));
    const failed = cases.find((c) => c["@name"] === "grounded answer with citations");
    const failure = failed?.failure as Attributes;
    expect(failure["@message"]).toContain('required criterion "states the version" failed');
    const body = String(failure["#text"]);
    expect(body).toContain("states the version  0.20 / 0.90  [required (failed)]");
    expect(body).toContain("invents no figures  0.15 / 0.70  [guard (triggered)]");
    expect(body).toContain('evidence: "cut latency by 40%"');
  });

  it("reports a judge error as <error>, and deferred and budget-skipped evals as <skipped> with their note", () => {
    const { cases } = parse(junitReporter.render(buildSampleReport(), { color: false }));
    const byName = (name: string) => cases.find((c) => c["@name"] === name) as Attributes;
    expect(byName("subjective call, juried").error).toBeDefined();
    expect(byName("subjective call, juried").failure).toBeUndefined();
    const deferred = byName("books the meeting and confirms").skipped as Attributes;
    expect(deferred["@message"]).toMatch(/^deferred: no model API key/);
    const skipped = byName("summary quality (claude-haiku-4-5, prompt 1)").skipped as Attributes;
    expect(skipped["@message"]).toMatch(/^skipped \(budget\): /);
    expect(byName("refuses the destructive request").skipped).toBeUndefined();
  });

  it("carries the cost as properties", () => {
    const { suite, cases } = parse(junitReporter.render(buildSampleReport(), { color: false }));
    const props = (suite.properties as { property: Attributes[] }).property;
    expect(props.find((p) => p["@name"] === "cost_usd")?.["@value"]).toBe("0.0278");
    const caseProps = ((cases[1] as Attributes).properties as { property: Attributes[] }).property;
    expect(caseProps.find((p) => p["@name"] === "cost_usd")?.["@value"]).toBe("0.0134");
  });

  it("stays valid with markup, quotes, newlines and control characters in the report", () => {
    const hostile = `<b>"x" & 'y'</b>\u0001\u001b[31m]]>\nline two`;
    const results = sampleResults().map((r) => ({
      ...r,
      name: `${r.name} ${hostile}`,
      eval: hostile,
      reason: hostile,
    }));
    const xml = junitReporter.render(buildSampleReport({ results, suite: { file: hostile } }), {
      color: false,
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const { cases } = parse(xml);
    expect(cases[0]?.["@classname"]).toContain(`<b>"x" & 'y'</b>`);
    expect(cases[0]?.["@classname"]).toContain("\nline two");
  });
});
