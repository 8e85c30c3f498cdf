import { expect } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import type { ConfigIssue } from "../../lib/config/types";

// What the loader tests share: a suite's issues, failing the test when it loads.

export function issuesOf(text: string): ConfigIssue[] {
  const result = loadSuite({ text, file: "suite.yaml" });
  if (result.ok) throw new Error("expected the suite to be invalid");
  return result.issues;
}

/** The one issue of a suite, failing the test when there are more or none. */
export function only(text: string): ConfigIssue {
  const issues = issuesOf(text);
  expect(issues, JSON.stringify(issues)).toHaveLength(1);
  return issues[0]!;
}
