import type { Report } from "../engine/results/report";
import type { Saving, Savings } from "../engine/results/savings-types";
import { formatInt, formatResultCost, formatUsd, plural } from "./format";

// What the caches saved, as the human formats word it: one wording for pretty,
// md, html and the CLI's stderr, from the report's one `savings` figure
// (lib/engine/savings.ts), so no two places show two numbers for one question.

/**
 * A saving in dollars, with its sign (a cache write is a negative saving); an
 * unpriced model's part is named, never counted as $0. The dashboard passes
 * its own dollar format.
 */
export function formatSaving(saving: Saving, usd: (value: number) => string = formatUsd): string {
  if (saving.usd === null) return "unpriced";
  const signed = saving.usd < 0 ? `-${usd(-saving.usd)}` : usd(saving.usd);
  return saving.unpriced ? `${signed} + unpriced` : signed;
}

/** Whether there is anything to say: cache tokens read or written, verdicts reused, calls batched. */
export function hasSavings(savings: Savings | undefined): savings is Savings {
  if (!savings) return false;
  const { promptCache, judgeCache, batch } = savings;
  return (
    promptCache.readTokens + promptCache.writeTokens + judgeCache.calls + (batch?.calls ?? 0) > 0
  );
}

/**
 * The parts of a saving, each with its own figure: "prompt cache $2.93 (reads 2,000,000 tokens
 * $3.00, writes 100,000 tokens -$0.0750)", ...
 */
export function savingsParts(savings: Savings): string[] {
  const { promptCache: cache, judgeCache, batch } = savings;
  const parts: string[] = [];
  if (cache.readTokens + cache.writeTokens > 0) {
    parts.push(
      `prompt cache ${formatSaving(cache.net)} (reads ${formatInt(cache.readTokens)} tokens ${formatSaving(cache.reads)}, writes ${formatInt(cache.writeTokens)} tokens ${formatSaving(cache.writes)})`,
    );
  }
  if (judgeCache.calls > 0)
    parts.push(
      `judge cache ${formatSaving(judgeCache.saved)} (${plural(judgeCache.calls, "reused verdict")})`,
    );
  if (batch && batch.calls > 0)
    parts.push(`batches ${formatSaving(batch.saved)} (${plural(batch.calls, "batched call")})`);
  return parts;
}

/**
 * "$2.95: prompt cache ..., judge cache ..." (a "Saved" field); undefined when nothing was cached,
 * reused or batched.
 */
export function savingsDetail(savings: Savings | undefined): string | undefined {
  if (!hasSavings(savings)) return undefined;
  return `${formatSaving(savings.total)}: ${savingsParts(savings).join(", ")}`;
}

/** "saved $2.95: prompt cache ..., judge cache ..." (a summary line); undefined when there is nothing to say. */
export function savingsLine(savings: Savings | undefined): string | undefined {
  const detail = savingsDetail(savings);
  return detail === undefined ? undefined : `saved ${detail}`;
}

/** One eval's saving for a table cell: its total, or a dash when it had nothing cached or reused. */
export function savedCell(savings: Savings | undefined): string {
  return hasSavings(savings) ? formatSaving(savings.total) : "—";
}

/** The run's cost; calls of an unpriced model make it read "unpriced" (or "$x + unpriced"), never a made-up $0. */
export function formatReportCost(report: {
  summary: Pick<Report["summary"], "costUsd">;
  results: readonly Pick<Report["results"][number], "calls">[];
}): string {
  return formatResultCost({
    costUsd: report.summary.costUsd,
    calls: report.results.flatMap((r) => r.calls),
  });
}
