import type { EvalResult } from "../engine/results/report";
import type { FlipRow } from "../engine/results/flips-preview-types";
import { flippedCriteria } from "../engine/trust/regrade/flip-kind";

// A flip as the editor's preview panel lists it: which result, its verdict in
// the stored run and now, and the new reasoning of what changed. Plain data,
// sent to the browser.

function cellWords(cell: EvalResult["cell"]): string {
  if (!cell) return "";
  const parts: string[] = [];
  if (cell.item !== undefined) parts.push(`item ${cell.item}`);
  if (cell.agent !== undefined) parts.push(`agent ${cell.agent}`);
  if (cell.model !== undefined) parts.push(`judge ${cell.model}`);
  if (cell.promptIndex !== undefined) parts.push(`prompt ${cell.promptIndex}`);
  else if (cell.prompt !== undefined) parts.push(`prompt "${cell.prompt}"`);
  return parts.join(", ");
}

/** The criteria whose verdict is not the stored one (all of them when none is). */
function changedReasons(now: EvalResult, before: EvalResult): FlipRow["reasons"] {
  const old = new Map(before.criteria.map((c) => [c.name, c]));
  const flippedNames = new Set(flippedCriteria({ now, before }));
  const reasonOf = (c: EvalResult["criteria"][number]) =>
    c.reasoning || c.verdicts.map((v) => `${v.judge}: ${v.reasoning || v.error || ""}`).join(" · ");
  const changed = now.criteria.filter((c) => {
    const was = old.get(c.name);
    return (
      !was || was.description !== c.description || was.score !== c.score || flippedNames.has(c.name)
    );
  });
  const criteria = (changed.length > 0 ? changed : now.criteria).map((c) => ({
    criterion: c.name,
    score: c.score,
    reasoning: reasonOf(c),
  }));
  if (criteria.length > 0) return criteria;
  // A free-form rubric (or a tree): each judge's reasoning over the whole rubric.
  return now.judges.map((j) => ({
    criterion: now.judges.length > 1 ? j.judge : "rubric",
    score: j.score,
    reasoning: j.reasoning ?? j.error ?? "",
  }));
}

export function flipRowOf(input: {
  now: EvalResult;
  before: EvalResult;
  kind: FlipRow["kind"];
  runId: string;
}): FlipRow {
  const { now, before } = input;
  return {
    kind: input.kind,
    flippedCriteria: flippedCriteria({ now, before }),
    id: now.id,
    name: now.name,
    eval: now.eval,
    cell: cellWords(now.cell),
    previous: { status: before.status, score: before.score, display: before.display },
    now: { status: now.status, score: now.score, display: now.display },
    reasons: changedReasons(now, before),
    href: `/runs/${input.runId}/results/${encodeURIComponent(now.id)}`,
  };
}
