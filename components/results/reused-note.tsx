import Link from "next/link";
import type { JudgeCallSummary } from "@/lib/engine/results/report";

/** How many of a result's verdicts came from the judge cache, and from which runs (those the cache knows paid for them). */
export function reusedVerdicts(calls: JudgeCallSummary[]): { count: number; runs: string[] } {
  const reused = calls.filter((c) => c.reused);
  const runs = [...new Set(reused.map((c) => c.reused!.fromRunId).filter((r) => r !== undefined))];
  return { count: reused.length, runs };
}

/**
 * A result answered (wholly or partly) from the judge cache says so beside its
 * "Judge calls 0 · Cost $0 · Tokens 0", and names the run that paid for
 * those verdicts when the cache knows it; nothing for a result that reused none.
 */
export function ReusedNote({ calls }: { calls: JudgeCallSummary[] }) {
  const { count, runs } = reusedVerdicts(calls);
  if (count === 0) return null;
  const all = count === calls.length;
  return (
    <p data-testid="reused-note">
      {all ? "Every verdict" : `${count} of ${calls.length} verdicts`} of this result{" "}
      {count === 1 && all ? "was" : "were"} reused from the judge cache, so{" "}
      {all
        ? "no judge call, cost or tokens were spent on it in this run"
        : "those cost nothing here"}
      {runs.length > 0 ? (
        <>
          {"; first paid for by run "}
          {runs.map((id, i) => (
            <span key={id}>
              {i > 0 ? ", " : ""}
              <Link href={`/runs/${id}`}>{id.slice(0, 8)}</Link>
            </span>
          ))}
        </>
      ) : (
        "; the run that paid for them is not known"
      )}
      .
    </p>
  );
}
