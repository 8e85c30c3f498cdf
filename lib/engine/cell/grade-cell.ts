import type { Rubric, TreeNode } from "../../config/types";
import { addTokenUsage } from "../ports/judge-port";
import type { JudgeRequest, TokenUsage } from "../ports/judge-port";
import type { EvalResult, JudgeCallSummary, TreeStep, VerdictRecord } from "../results/report";
import type { PlannedCell, JudgeInstance } from "../grade/planned-cell";
import { SKIPPED, type CallJudge, type CallResult } from "../grade/call-judge";
import type { SkipReason } from "../grade/call-scheduler";
import {
  criterionRequest,
  freeformRequest,
  treeNodeRequest,
  type Candidate,
  type JudgeSettings,
} from "../grade/build-prompt";
import { matchWhen } from "../grade/match-when";
import { evidenceOccurs } from "../grade/check-evidence";
import {
  scoreCriteria,
  scoreSingle,
  type CriterionVerdict,
  type RubricScore,
  type ScoredCriterion,
} from "../grade/score-rubric";
import { combineJudges, type JudgeOutcomeScore } from "../combine/combine-judges";
import { criterionResults } from "../combine/criterion-results";
import { formatScore } from "../results/format-score";
import { gradeReviewCell } from "../review/grade-review";
import { gradePairwiseCell } from "../pairwise/grade-pairwise";

// Grades one planned cell: every judge (panel model × juror) grades the whole
// rubric, then the jury and panel rules combine them into one result.

interface JudgeRun {
  grade: JudgeOutcomeScore;
  skipped?: SkipReason;
  calls: JudgeCallSummary[];
  criteria: ScoredCriterion[];
  verdicts: VerdictRecord[][];
  treePath?: TreeStep[];
  leaf?: { score: number; reason?: string };
}

function record(judge: JudgeInstance, result: CallResult): VerdictRecord {
  if (result.kind === "skipped")
    return {
      judge: judge.label,
      model: judge.model,
      juror: judge.juror,
      score: null,
      reasoning: "",
      error: SKIPPED.verdict(result.reason),
    };
  const { outcome } = result;
  if (!outcome.ok)
    return {
      judge: judge.label,
      model: judge.model,
      juror: judge.juror,
      score: null,
      reasoning: "",
      error: outcome.error.message,
    };
  const { reasoning, score, evidence } = outcome.verdict;
  return {
    judge: judge.label,
    model: judge.model,
    juror: judge.juror,
    score,
    reasoning,
    ...(evidence !== undefined ? { evidence } : {}),
  };
}

async function runJudge(input: {
  cell: PlannedCell;
  judge: JudgeInstance;
  candidate: Candidate;
  call: CallJudge;
}): Promise<JudgeRun> {
  const { cell, judge, candidate, call } = input;
  const rubric: Rubric = cell.eval.rubric;
  const jurors = cell.judges.filter((j) => j.model === judge.model).length;
  const settings: JudgeSettings = {
    model: judge.model,
    maxTokens: cell.eval.judge.maxTokens,
    sample: judge.juror,
    jurors,
  };
  const calls: JudgeCallSummary[] = [];
  let skipped: SkipReason | undefined;
  const send = async (request: JudgeRequest) => {
    const result = await call(request);
    if (result.kind === "skipped") skipped ??= result.reason;
    else {
      const { raw: _raw, ...summary } = result.outcome.call;
      calls.push(
        result.outcome.ok
          ? summary
          : { ...summary, error: `${result.outcome.error.kind}: ${result.outcome.error.message}` },
      );
    }
    return result;
  };
  const errorOf = (result: CallResult) =>
    result.kind === "done" && !result.outcome.ok
      ? `${result.outcome.error.kind}: ${result.outcome.error.message}`
      : undefined;
  const base = { model: judge.model, juror: judge.juror };
  const pending: RubricScore = { score: null, passed: null, vacuous: false, gates: [] };

  if (rubric.kind === "criteria") {
    const results = await Promise.all(
      rubric.criteria.map(
        async (criterion): Promise<{ verdict: CriterionVerdict; records: VerdictRecord[] }> => {
          const when = matchWhen(criterion.when, candidate.response);
          if (!when.applies)
            return { verdict: { criterion, skippedReason: when.reason }, records: [] };
          const result = await send(
            criterionRequest({
              criteria: rubric.criteria,
              criterion,
              requireEvidence: rubric.requireEvidence,
              settings,
              candidate,
            }),
          );
          // The judge was never asked: not a judge_error. The eval is reported skipped.
          if (result.kind === "skipped")
            return {
              verdict: { criterion, skippedReason: SKIPPED.criterion(result.reason) },
              records: [record(judge, result)],
            };
          const verdict =
            result.kind === "done" && result.outcome.ok ? result.outcome.verdict : undefined;
          return {
            verdict: { criterion, verdict, error: errorOf(result) },
            records: [record(judge, result)],
          };
        },
      ),
    );
    const scored = scoreCriteria({
      rubric,
      verdicts: results.map((r) => r.verdict),
      candidate: candidate.response,
    });
    return {
      grade: { ...base, ...(skipped ? pending : scored.result), criteria: scored.criteria },
      skipped,
      calls,
      criteria: scored.criteria,
      verdicts: results.map((r) => r.records),
    };
  }

  if (rubric.kind === "freeform") {
    const result = await send(freeformRequest({ rubricText: rubric.text, settings, candidate }));
    const rec = record(judge, result);
    const error = errorOf(result);
    const grade: RubricScore =
      result.kind === "done" && result.outcome.ok
        ? scoreSingle({
            score: result.outcome.verdict.score,
            threshold: rubric.threshold,
            strict: rubric.strict,
          })
        : { ...pending, error };
    // The verdict's reasoning and evidence are kept (the evidence checked against the candidate, as for a criterion).
    const verdict =
      result.kind === "done" && result.outcome.ok ? result.outcome.verdict : undefined;
    const why = verdict
      ? {
          reasoning: verdict.reasoning,
          ...(verdict.evidence !== undefined && verdict.evidence.trim() !== ""
            ? {
                evidence: verdict.evidence,
                evidenceFound: evidenceOccurs(verdict.evidence, candidate.response),
              }
            : {}),
        }
      : {};
    return {
      grade: { ...base, ...grade, ...why },
      skipped,
      calls,
      criteria: [],
      verdicts: [[rec]],
    };
  }

  if (rubric.kind !== "tree")
    throw new Error(`runJudge: a ${rubric.kind} rubric is graded by its own module`);
  const path: TreeStep[] = [];
  let node: TreeNode = rubric.tree;
  while ("ask" in node) {
    const result = await send(
      treeNodeRequest({ tree: rubric.tree, question: node.ask, settings, candidate }),
    );
    if (result.kind === "skipped")
      return {
        grade: { ...base, ...pending },
        skipped,
        calls,
        criteria: [],
        verdicts: [],
        treePath: path,
      };
    if (!result.outcome.ok) {
      return {
        grade: { ...base, ...pending, error: errorOf(result) },
        skipped,
        calls,
        criteria: [],
        verdicts: [],
        treePath: path,
      };
    }
    const { score, reasoning } = result.outcome.verdict;
    const answer = score >= 0.5 ? "yes" : "no";
    path.push({ ask: node.ask, answer, score, reasoning });
    node = answer === "yes" ? node.yes : node.no;
  }
  const leaf = { score: node.score, reason: node.reason };
  const grade = scoreSingle({
    score: leaf.score,
    threshold: rubric.threshold,
    strict: rubric.strict,
  });
  return {
    grade: { ...base, ...grade },
    skipped,
    calls,
    criteria: [],
    verdicts: [],
    treePath: path,
    leaf,
  };
}

function sumUsage(calls: JudgeCallSummary[]): TokenUsage {
  return calls.reduce((sum, c) => addTokenUsage(sum, c.usage), {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
  });
}

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
      reason = `score ${s.toFixed(2)} ${s >= rubric.threshold - 1e-9 ? "≥" : "<"} threshold ${rubric.threshold.toFixed(2)}`;
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
    judgeCalls: calls.filter((c) => !c.reused).length,
    latencyMs: Math.max(0, now() - started),
    calls,
  };
}
