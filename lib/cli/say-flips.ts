import type { BaselineComparison } from "../engine/results/report";
import {
  changedCount,
  criteriaFlipText,
  FLIP_KIND_TEXT,
  flipCountsText,
} from "../engine/trust/regrade/flip-counts";
import { plural } from "../engine/results/format-score";
import { stripControl } from "../report/escape";
import { formatInt, formatUnit } from "../report/format";
import type { PrismaClient } from "../store/generated/client";
import { createRegradeViews, FLIPS_PAGE_SIZE } from "../store/regrade-views";
import type { CliIo } from "./cli-io";

// How `regrade` (and `report RUN_ID` of a regrade) ends: one tally of the flips in the flips
// page's words, from its queries, with the gate's regressions in the same words, then the page's
// first 20 changes in its order and a count of the rest, and where the page is.

/** The gate's count (exit 1 on any), worded as flips: the results that now fail or dropped. */
function gateText(b: BaselineComparison): string {
  if (b.regressions === 0) return "";
  const dropped = b.regressions - b.newlyFailing;
  const parts = [
    b.newlyFailing
      ? `${formatInt(b.newlyFailing)} that now ${b.newlyFailing === 1 ? "fails" : "fail"}`
      : "",
    dropped ? `${formatInt(dropped)} whose score dropped by more than ${b.maxDrop.toFixed(2)}` : "",
  ].filter(Boolean);
  return `; ${plural(b.regressions, "regression")} at --max-drop ${b.maxDrop.toFixed(2)} (${parts.join(", ")})`;
}

export async function sayFlips(input: {
  prisma: PrismaClient;
  runId: string;
  sourceRunId: string;
  baseline: BaselineComparison | undefined;
  /** A report was written as the run went (in the suite's order): said beside the list. */
  streamed: boolean;
  io: CliIo;
}): Promise<void> {
  const views = createRegradeViews(input.prisma);
  const [counts, page] = await Promise.all([
    views.flipCounts({ runId: input.runId }),
    views.flipPage({ runId: input.runId, limit: FLIPS_PAGE_SIZE }),
  ]);
  const gate = input.baseline ? gateText(input.baseline) : "";
  const lines = [`Against run ${input.sourceRunId}: ${flipCountsText(counts)}${gate}`];
  const changed = changedCount(counts);
  if (changed > 0)
    lines.push(
      `In the flips page's order (a result's flip, then a criterion's, then a moved score; the biggest change first)${input.streamed ? "; a report written as the run went lists every result in the suite's order" : ""}:`,
    );
  for (const pair of page.pairs) {
    const { previous: was, current: now } = pair;
    const criteria = pair.flippedCriteria.length ? `; ${criteriaFlipText(pair)}` : "";
    lines.push(
      `  ${FLIP_KIND_TEXT[pair.kind].padEnd(19)}  ${stripControl(now.name).replace(/\n/g, " ")}  ${was.status} ${formatUnit(was.score)} → ${now.status} ${formatUnit(now.score)}${stripControl(criteria)}`,
    );
  }
  const more = changed - page.pairs.length;
  if (more > 0) lines.push(`  … and ${formatInt(more)} more`);
  lines.push(
    `Each change with both verdicts side by side in the dashboard (npm start): /runs/${input.runId}/flips`,
  );
  input.io.stderr.write(`${lines.join("\n")}\n`);
}
