import type { Rubric, TreeNode } from "../../config/types";
import type { JudgeRequest } from "../ports/judge-port";
import type { JudgeCallSummary, TreeStep, VerdictRecord } from "../results/report";
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
import type { JudgeOutcomeScore } from "../combine/combine-judges";

// One judge (a panel model × juror) grades a cell's whole rubric; grade-cell.ts
// combines the judges' runs by the jury and panel rules.

/** One judge's grading of a cell's whole rubric: its score, calls and per-criterion verdicts. */
export interface JudgeRun {
  grade: JudgeOutcomeScore;
  skipped?: SkipReason;
  calls: JudgeCallSummary[];
  criteria: ScoredCriterion[];
  verdicts: VerdictRecord[][];
  treePath?: TreeStep[];
  leaf?: { score: number; reason?: string };
}

/** A verdict the judge did not give: skipped, or its call failed. */
const noVerdict = (judge: JudgeInstance, error: string): VerdictRecord => ({
  judge: judge.label,
  model: judge.model,
  juror: judge.juror,
  score: null,
  reasoning: "",
  error,
});

function record(judge: JudgeInstance, result: CallResult): VerdictRecord {
  if (result.kind === "skipped") return noVerdict(judge, SKIPPED.verdict(result.reason));
  const { outcome } = result;
  if (!outcome.ok) return noVerdict(judge, outcome.error.message);
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

/** One judge (a juror, or a panel model) grades the cell's whole rubric: criteria, a tree's path, or a free-form verdict. */
export async function runJudge(input: {
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
