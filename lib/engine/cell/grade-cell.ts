import { billedCalls, sumUsage } from "../ports/judge-port";
import type { EvalResult } from "../results/report";
import type { PlannedCell } from "../grade/planned-cell";
import { SKIPPED, type CallJudge } from "../grade/call-judge";
import { combineJudges } from "../combine/combine-judges";
import { criterionResults } from "../combine/criterion-results";
import { formatScore, thresholdReason } from "../results/format-score";
import { gradeReviewCell } from "../review/grade-review";
import { gradePairwiseCell } from "../pairwise/grade-pairwise";
import { runJudge } from "./run-judge";

// Grades one planned cell: every judge (panel model × juror) grades the whole
// rubric, then the jury and panel rules combine them into one result.

export async function gradeCell(input: {
  cell: PlannedCell;
  call: CallJudge;
  now: () => number;
}): Promise<EvalResult> {
  const { cell, call, now } = input;
  const started = now();
  const rubric = cell.eval.rubric;
  // A deferred cell has no candidate yet, but a matrix cell still has its own prompt.
  const prompt =
    cell.candidate?.prompt ?? cell.live?.prompt ?? cell.cell?.prompt ?? cell.eval.prompt;
  const base = {
    id: cell.id,
    name: cell.name,
    eval: cell.eval.name,
    cell: cell.cell,
    ...(cell.cellIndex !== undefined ? { cellIndex: cell.cellIndex } : {}),
    threshold: rubric.threshold,
    scale: rubric.scale,
    thresholdDisplay: formatScore({ score: rubric.threshold, scale: rubric.scale, passed: true }),
    rubric: {
      kind: rubric.kind,
      source: rubric.source,
      ...(rubric.kind === "freeform" ? { text: rubric.text } : {}),
    },
    judge: {
      models: [...new Set(cell.judges.map((j) => j.model))],
      ...(cell.judges.some((j) => j.provider !== undefined)
        ? {
            providers: Object.fromEntries(
              cell.judges.map((j) => [j.model, j.provider ?? "anthropic"]),
            ),
          }
        : {}),
      jurySize: cell.eval.judge.jury.size,
      consensus: cell.eval.judge.jury.consensus,
      ...(cell.eval.judge.panel ? { aggregate: cell.eval.judge.aggregate } : {}),
    },
    candidate: {
      source: cell.candidate
        ? ("fixed" as const)
        : cell.eval.generates
          ? ("generated" as const)
          : ("live" as const),
      ...(cell.eval.server !== undefined ? { server: cell.eval.server } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      ...(cell.candidate ? { response: cell.candidate.response } : {}),
    },
    location: cell.eval.location,
  };

  if (cell.deferReason !== undefined || !cell.candidate) {
    return {
      ...base,
      // No verdict, so no criterion rows: the rubric keeps what would have been graded.
      rubric: {
        ...base.rubric,
        ...(rubric.kind === "criteria"
          ? { criteria: rubric.criteria.map((c) => ({ name: c.name, description: c.description })) }
          : {}),
      },
      status: "deferred",
      vacuous: false,
      score: null,
      display: "deferred",
      reason: `deferred: ${cell.deferReason}`,
      note: cell.deferReason,
      criteria: [],
      judges: [],
      gates: [],
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      costUsd: 0,
      judgeCalls: 0,
      latencyMs: 0,
      calls: [],
    };
  }

  const candidate = cell.candidate;
  if (rubric.kind === "categories")
    return gradeReviewCell({
      cell,
      call,
      now,
      base,
      started,
      document: candidate.response,
      ...(candidate.reference ? { reference: candidate.reference } : {}),
      // A generated or live document answered a prompt: the reviewer reads it (a document under review answered none).
      ...(cell.live && candidate.prompt !== undefined ? { prompt: candidate.prompt } : {}),
    });
  if (rubric.kind === "pairwise") return gradePairwiseCell({ cell, call, now, base, started });
  const runs = await Promise.all(
    cell.judges.map((judge) => runJudge({ cell, judge, candidate, call })),
  );
  const calls = runs.flatMap((r) => r.calls);
  const combined = combineJudges({
    grades: runs.map((r) => r.grade),
    judge: cell.eval.judge,
    threshold: rubric.threshold,
    strict: rubric.strict,
  });
  const skipped = runs.find((r) => r.skipped)?.skipped;
  const vacuous = !skipped && combined.error === undefined && runs.every((r) => r.grade.vacuous);
  const status = skipped
    ? "skipped"
    : combined.error !== undefined
      ? "judge_error"
      : combined.passed
        ? "passed"
        : "failed";
  const firstTree = runs[0]?.treePath;

  let reason: string;
  let note: string | undefined;
  const score = status === "passed" || status === "failed" ? combined.score : null;
  if (status === "skipped") {
    ({ reason, note } = SKIPPED.eval(skipped!));
  } else if (status === "judge_error") {
    reason = combined.error!;
  } else if (vacuous) {
    note = "vacuous pass: every criterion was skipped by its when: predicate";
    reason = note;
  } else if (combined.gates.length > 0) {
    reason = combined.gates.join("; ");
  } else {
    const s = combined.score!;
    if (combined.decision) {
      // A jury or panel decides by its own rule; the reported score is only
      // the mean, and comparing it with the threshold would contradict the status.
      reason = `${combined.decision}; mean score ${s.toFixed(2)}`;
    } else if (rubric.strict) {
      reason =
        s >= 1 - 1e-9
          ? "a perfect score (strict)"
          : `score ${s.toFixed(2)} is short of the perfect 1.00 that strict requires`;
    } else {
      reason = thresholdReason({ score: s, threshold: rubric.threshold, scale: rubric.scale });
    }
  }

  const usage = sumUsage(calls);
  return {
    ...base,
    status,
    vacuous,
    score,
    display:
      status === "skipped"
        ? "skipped"
        : status === "judge_error"
          ? "judge_error"
          : vacuous
            ? "vacuous"
            : formatScore({ score, scale: rubric.scale, passed: combined.passed ?? undefined }),
    reason,
    ...(note !== undefined ? { note } : {}),
    ...(skipped ? { skipKind: skipped } : {}),
    criteria: criterionResults({
      runs: runs.map((r) => ({ model: r.grade.model, criteria: r.criteria, verdicts: r.verdicts })),
      judge: cell.eval.judge,
    }),
    ...(rubric.kind === "tree"
      ? { tree: { path: firstTree ?? [], ...(runs[0]?.leaf ? { leaf: runs[0].leaf } : {}) } }
      : {}),
    judges: runs.map((r, i) => ({
      judge: cell.judges[i]!.label,
      model: r.grade.model,
      ...(cell.judges[i]!.provider !== undefined ? { provider: cell.judges[i]!.provider } : {}),
      juror: r.grade.juror,
      score: r.grade.score,
      passed: r.grade.passed,
      ...(r.grade.error !== undefined ? { error: r.grade.error } : {}),
      ...(r.grade.reasoning !== undefined ? { reasoning: r.grade.reasoning } : {}),
      ...(r.grade.evidence !== undefined
        ? { evidence: r.grade.evidence, evidenceFound: r.grade.evidenceFound ?? false }
        : {}),
      ...(r.treePath ? { treePath: r.treePath } : {}),
    })),
    gates: combined.gates,
    usage,
    costUsd: calls.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
    // Requests actually sent: verdicts reused from the cache cost nothing now.
    judgeCalls: billedCalls(calls),
    latencyMs: Math.max(0, now() - started),
    calls,
  };
}
