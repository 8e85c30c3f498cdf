import type {
  JudgeCallContext,
  JudgeErrorKind,
  JudgeOutcome,
  JudgePort,
  JudgeRequest,
  TokenUsage,
  VerdictKind,
} from "../../lib/engine/ports/judge-port";
import type { Verdict } from "../../lib/engine/ports/verdict";
import { ZERO_USAGE } from "../../lib/engine/ports/judge-port";

// A scripted stand-in for the judge port (DESIGN.md, house rule 3): a plain
// object the engine receives in its deps, no HTTP and no module mocking. The
// script decides each answer from the request; the fake records every request
// and how many calls held a concurrency slot at once.

interface AnswerTiming {
  /** What the call cost; recorded on the call. Default 0. */
  costUsd?: number | null;
  /** How long the call takes while holding its slot. Default 0 (still asynchronous). */
  delayMs?: number;
  /**
   * Simulates one retry before answering: the call gives its slot back
   * (JudgeSlot.release), waits this long, takes a slot again
   * (JudgeSlot.acquire) and only then goes on, as the Anthropic adapter does.
   */
  retryAfterMs?: number;
  usage?: TokenUsage;
}

export type FakeVerdict = { score: number; reasoning?: string; evidence?: string } & AnswerTiming;
export type FakeError = { error: JudgeErrorKind; message?: string } & AnswerTiming;
/** A structured verdict (category, holistic, pairwise), returned as given. */
export type FakeStructured = { verdict: Verdict } & AnswerTiming;
export type FakeAnswer = FakeVerdict | FakeError | FakeStructured;

export type FakeScript = (request: JudgeRequest<VerdictKind>) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeJudge extends JudgePort {
  /** Every request, in the order the calls started. */
  readonly requests: JudgeRequest<VerdictKind>[];
  /** Calls that hold a concurrency slot right now. */
  readonly inFlight: number;
  /** The most calls that ever held a slot at once. */
  readonly maxInFlight: number;
  /** What happened, in order: "start <label>", "release <label>", "reacquire <label>", "end <label>". */
  readonly events: string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A short label for a request in `events`: the criterion, tree question or
 * "rubric", plus the model.
 */
export function labelOf(request: JudgeRequest<VerdictKind>): string {
  const what = criterionOf(request) ?? questionOf(request) ?? categoryOf(request) ?? "rubric";
  return `${what} @${request.model}`;
}

export function createFakeJudge(script: FakeScript): FakeJudge {
  const requests: JudgeRequest<VerdictKind>[] = [];
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const hold = () => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
  };

  const grade = async (
    request: JudgeRequest<VerdictKind>,
    { slot }: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>> => {
    requests.push(request);
    const label = labelOf(request);
    hold();
    events.push(`start ${label}`);
    const answer = await script(request);
    if (answer.retryAfterMs !== undefined) {
      inFlight--;
      events.push(`release ${label}`);
      slot.release();
      await sleep(answer.retryAfterMs);
      await slot.acquire();
      hold();
      events.push(`reacquire ${label}`);
    }
    await sleep(answer.delayMs ?? 0);
    inFlight--;
    events.push(`end ${label}`);
    const call = {
      model: request.model,
      templateVersion: request.templateVersion,
      attempts: answer.retryAfterMs !== undefined ? 2 : 1,
      latencyMs: answer.delayMs ?? 0,
      usage: answer.usage ?? ZERO_USAGE,
      costUsd: answer.costUsd === undefined ? 0 : answer.costUsd,
      raw: answer,
    };
    if ("error" in answer)
      return {
        ok: false,
        error: { kind: answer.error, message: answer.message ?? `fake ${answer.error}` },
        call,
      };
    if ("verdict" in answer) return { ok: true, verdict: answer.verdict, call };
    const verdict = {
      reasoning: answer.reasoning ?? `scripted ${answer.score}`,
      score: answer.score,
      ...(answer.evidence !== undefined ? { evidence: answer.evidence } : {}),
    };
    return { ok: true, verdict, call };
  };

  return {
    grade,
    requests,
    events,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

// Reading a request: the shared prefix lists the whole rubric, so what one
// call grades is read from its last turn (the criterion's name in quotes, the
// tree question on the line after the ask, the category's id); a free-form
// rubric's text is on the line after its heading.

export function criterionOf(request: JudgeRequest<VerdictKind>): string | undefined {
  return /the criterion "(.*)" only/.exec(request.taskPrompt)?.[1];
}

export function questionOf(request: JudgeRequest<VerdictKind>): string | undefined {
  return /^Answer this question only.*\n(.*)$/m.exec(request.taskPrompt)?.[1];
}

export function rubricTextOf(request: JudgeRequest<VerdictKind>): string | undefined {
  return /^## Rubric\n(.*)$/m.exec(request.stablePrompt)?.[1];
}

/** The category id a review request grades (its last turn names it: `"Name" (id: x)`). */
export function categoryOf(request: JudgeRequest<VerdictKind>): string | undefined {
  return /\(id: ([^)]*)\) only/.exec(request.taskPrompt)?.[1];
}

/** An entry of a routing table: one answer for every call, or a list consumed in order (the last repeats). */
export type Answers = FakeAnswer | FakeAnswer[];

function router(
  keyOf: (request: JudgeRequest<VerdictKind>) => string | undefined,
  what: string,
  table: Record<string, Answers>,
): FakeScript {
  const used = new Map<string, number>();
  return (request) => {
    const key = keyOf(request);
    const entry = key === undefined ? undefined : table[key];
    if (key === undefined || entry === undefined) {
      // A test that forgot a route should fail loudly, not grade with a default.
      throw new Error(`fake judge: no scripted answer for ${what} ${JSON.stringify(key)}`);
    }
    if (!Array.isArray(entry)) return entry;
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    const answer = entry[Math.min(n, entry.length - 1)];
    if (!answer)
      throw new Error(`fake judge: empty answer list for ${what} ${JSON.stringify(key)}`);
    return answer;
  };
}

/** Answers by the criterion the request grades. */
export const byCriterion = (table: Record<string, Answers>): FakeScript =>
  router(criterionOf, "criterion", table);

/** Answers by the tree question the request asks. */
export const byQuestion = (table: Record<string, Answers>): FakeScript =>
  router(questionOf, "question", table);

/** Answers by the category a review request grades (analytic reviews). */
export const byCategory = (table: Record<string, Answers>): FakeScript =>
  router(categoryOf, "category", table);

/** Answers by the judge model (panels, matrix cells). */
export const byModel = (table: Record<string, Answers>): FakeScript =>
  router((r) => r.model, "model", table);

/** The same answers for any request: one for all, or a list consumed in call order. */
export const always = (answers: Answers): FakeScript =>
  router(() => "*", "any request", { "*": answers });
