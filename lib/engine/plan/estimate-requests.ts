import type { Criterion, Rubric, TreeNode } from "../../config/types";
import type { JudgeRequest, VerdictKind } from "../ports/judge-port";
import {
  criterionRequest,
  freeformRequest,
  renderCandidate,
  renderReference,
  treeNodeRequest,
  type Candidate,
  type JudgeSettings,
} from "../grade/build-prompt";
import { estimateTokens, tokensForChars } from "../cost/cost";
import { matchWhen } from "../grade/match-when";
import { reviewRequests } from "../review/review-prompt";
import { pairwiseRequests } from "../pairwise/pairwise-prompt";

// The token estimates behind `eval --explain` and the editor's plan, without
// building every request of every cell: the stable part of a request
// (instructions, the whole rubric, anchors) and its task turn are the same for
// every candidate graded against a rubric, so they are built once per rubric
// (and set of applicable criteria), and a candidate's part is counted by its length. The sums are
// those of building each request; the work no longer grows with cells ×
// the size of the rubric.

/** Tokens the verdict tool definition and message framing add to every request. */
export const REQUEST_OVERHEAD_TOKENS = 350;
/** Output tokens assumed per call: reasoning plus the verdict. */
export const EXPECTED_OUTPUT_TOKENS = 300;

export interface TokenEstimate {
  inputTokens: number;
  outputTokens: number;
  /** The request's cacheable prefixes, for the prompt-cache projection (cache-projection.ts). */
  prefix?: PrefixEstimate;
}

export interface PrefixEstimate {
  /** Same key, same rubric prefix (the tool, the instructions and the whole rubric). */
  stableKey: string;
  /** Tokens of that prefix. */
  stableTokens: number;
  /** Same key, same rubric and candidate. */
  candidateKey: string;
  candidateTokens: number;
  /** Whether other calls send the same candidate (the layout puts a breakpoint after it only then). */
  candidateShared: boolean;
}

export function longestPath(node: TreeNode): string[] {
  if (!("ask" in node)) return [];
  const yes = longestPath(node.yes);
  const no = longestPath(node.no);
  return [node.ask, ...(yes.length >= no.length ? yes : no)];
}

/** The requests one judge would send for a cell (for a tree, along its longest path). */
export function requestsFor(
  rubric: Rubric,
  settings: JudgeSettings,
  candidate: Candidate,
  whenUnknown = false,
): JudgeRequest<VerdictKind>[] {
  if (rubric.kind === "freeform")
    return [freeformRequest({ rubricText: rubric.text, settings, candidate })];
  if (rubric.kind === "categories")
    return reviewRequests({ rubric: rubric.rubricSet, settings, document: candidate.response });
  if (rubric.kind === "pairwise") return pairwiseRequests({ config: rubric.comparison, settings });
  if (rubric.kind === "tree")
    return longestPath(rubric.tree).map((question) =>
      treeNodeRequest({ tree: rubric.tree, question, settings, candidate }),
    );
  return (
    rubric.criteria
      // A live run's transcript is not known yet: every criterion may apply.
      .filter((c) => whenUnknown || matchWhen(c.when, candidate.response).applies)
      .map((criterion) =>
        criterionRequest({
          criteria: rubric.criteria,
          criterion,
          requireEvidence: rubric.requireEvidence,
          settings,
          candidate,
        }),
      )
  );
}

export function tokensOf(request: JudgeRequest<VerdictKind>): TokenEstimate {
  return {
    inputTokens:
      estimateTokens(request.stablePrompt) +
      estimateTokens(request.candidatePrompt) +
      estimateTokens(request.taskPrompt) +
      REQUEST_OVERHEAD_TOKENS,
    outputTokens: Math.min(EXPECTED_OUTPUT_TOKENS, request.maxTokens),
  };
}

/** renderCandidate(candidate).length, without rendering it: the candidate's texts go in verbatim. */
function candidateLength(candidate: Candidate): number {
  const frame = renderCandidate({
    response: "",
    ...(candidate.prompt !== undefined ? { prompt: "" } : {}),
  }).length;
  const reference =
    candidate.reference === undefined ? 0 : renderReference(candidate.reference).length + 2;
  return frame + candidate.response.length + (candidate.prompt?.length ?? 0) + reference;
}

export type RequestEstimator = (input: {
  rubric: Rubric;
  maxTokens: number;
  candidate: Candidate;
  whenUnknown: boolean;
}) => TokenEstimate[];

/** An estimator that remembers what it built, for one plan. */
export function createRequestEstimator(): RequestEstimator {
  const built = new Map<Rubric, Map<number, Map<string, TokenEstimate[]>>>();
  const applies = new Map<Criterion, Map<string, boolean>>();
  const memo = <K, T>(cache: Map<K, T>, key: K, make: () => T): T => {
    const found = cache.get(key);
    if (found !== undefined) return found;
    const made = make();
    cache.set(key, made);
    return made;
  };
  const builtFor = (rubric: Rubric, maxTokens: number) =>
    memo(
      memo(built, rubric, () => new Map<number, Map<string, TokenEstimate[]>>()),
      maxTokens,
      () => new Map<string, TokenEstimate[]>(),
    );
  // A rubric prefix's text is keyed by a short id, so that keys stay small.
  const stableIds = new Map<string, string>();
  const stableKeyOf = (text: string) => memo(stableIds, text, () => String(stableIds.size));
  const withPrefix = (request: JudgeRequest<VerdictKind>): TokenEstimate => {
    const stableKey = stableKeyOf(request.stablePrompt);
    const prefix: PrefixEstimate = {
      stableKey,
      // The overhead is the verdict tool and the API's tool-use instructions, which come before the system prompt: part of the prefix.
      stableTokens: REQUEST_OVERHEAD_TOKENS + estimateTokens(request.stablePrompt),
      candidateKey: `${stableKey}\u0000${request.candidatePrompt}`,
      candidateTokens: estimateTokens(request.candidatePrompt),
      candidateShared: request.candidateShared !== false,
    };
    return { ...tokensOf(request), prefix };
  };
  const settingsOf = (maxTokens: number): JudgeSettings => ({ model: "", maxTokens, sample: 1 });
  // A `when:` is tested once per criterion and response, however many cells share the response.
  const criterionApplies = (criterion: Criterion, response: string) =>
    criterion.when === undefined ||
    memo(
      memo(applies, criterion, () => new Map<string, boolean>()),
      response,
      () => matchWhen(criterion.when, response).applies,
    );

  return ({ rubric, maxTokens, candidate, whenUnknown }) => {
    const settings = settingsOf(maxTokens);
    // A review's requests carry the document, a comparison's its pairs: built once per document (or comparison).
    if (rubric.kind === "categories" || rubric.kind === "pairwise") {
      const key = rubric.kind === "categories" ? candidate.response : "";
      return memo(builtFor(rubric, maxTokens), key, () =>
        requestsFor(rubric, settings, candidate, whenUnknown).map(withPrefix),
      );
    }
    const applicable =
      rubric.kind === "criteria"
        ? rubric.criteria.flatMap((c, i) =>
            whenUnknown || criterionApplies(c, candidate.response) ? [i] : [],
          )
        : [];
    const stable = memo(builtFor(rubric, maxTokens), applicable.join(","), () => {
      // Every criterion's request lists the whole rubric (build-prompt.ts): built from the whole rubric, then the applicable ones kept.
      const all = requestsFor(rubric, settings, { response: "" }, true);
      const requests = rubric.kind === "criteria" ? applicable.map((i) => all[i]!) : all;
      return requests.map((request) => {
        const { prefix } = withPrefix(request);
        return {
          inputTokens: estimateTokens(request.stablePrompt) + estimateTokens(request.taskPrompt),
          outputTokens: Math.min(EXPECTED_OUTPUT_TOKENS, request.maxTokens),
          prefix: prefix!,
        };
      });
    });
    const candidateTokens = tokensForChars(candidateLength(candidate));
    const candidateKey = `${candidate.prompt ?? ""}\u0000${candidate.response}`;
    return stable.map((s) => {
      const prefix = s.prefix!;
      return {
        inputTokens: s.inputTokens + candidateTokens + REQUEST_OVERHEAD_TOKENS,
        outputTokens: s.outputTokens,
        prefix: {
          ...prefix,
          candidateKey: `${prefix.stableKey}\u0000${candidateKey}`,
          candidateTokens,
        },
      };
    });
  };
}
