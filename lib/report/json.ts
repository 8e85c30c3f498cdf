import type { Report } from "../engine/results/report";
import type { Reporter } from "./reporter";
import { stableObject } from "./stable-json";

// The canonical report itself: the format other tools and the dashboard read.

const LEADING = [
  "schemaVersion",
  "tool",
  "suite",
  "startedAt",
  "finishedAt",
  "durationMs",
  "summary",
  "budget",
  "results",
];

export const jsonReporter: Reporter = {
  name: "json",
  extension: "json",
  description: "application/json: the canonical report",
  render: (report: Report) => `${JSON.stringify(stableObject({ ...report }, LEADING), null, 2)}\n`,
};
