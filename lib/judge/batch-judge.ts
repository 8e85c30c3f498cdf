import { createHash } from "node:crypto";
import type Anthropic from "@anthropic-ai/sdk";
import { batchPrice } from "../engine/cost/cost";
import type {
  JudgeCallContext,
  JudgeErrorKind,
  JudgeOutcome,
  JudgeRequest,
  TypedJudgePort,
  VerdictKind,
} from "../engine/ports/judge-port";
import { replySchemaFor, type Verdict } from "../engine/ports/verdict";
import { judgeBodyOf } from "./anthropic-judge";
import { createBatchRounds, type BatchRoundsOptions, type Settled } from "./batch-rounds";
import { openCallLedger } from "./call-ledger";
import { priceOf } from "./pricing";
import { MESSAGES_API_TEMPERATURE } from "./request-layout";
import { addUsage } from "./retrying-messages";
import { readVerdict, repairTurns } from "./verdict-reply";

// The judge port over Message Batches (`--batch`): the same request body as
// anthropic-judge.ts, sent in rounds (batch-rounds.ts) at half the price. A
// reply that does not parse is repaired in the next round; a request that
// errored is retried once in the next round; an expired one is a judge_error
// of kind `expired`, never a pass or a fail. The concurrency slot is given
// back while the call waits for its batch, so every call of a round is in it.

export type BatchJudgeOptions = BatchRoundsOptions;

/**
 * The custom_id of a request: a hash of what decides its verdict, the same in
 * every process (a resumed run finds its requests in the stored batches), with
 * a suffix per attempt: `_1` first, `_2` the retry of an errored one, `_r1`
 * and `_r2` the repair.
 */
export function customIdOf(request: JudgeRequest<VerdictKind>): string {
  const hash = createHash("sha256");
  for (const part of [
    request.model,
    String(request.maxTokens),
    request.templateVersion,
    request.verdict,
    String(request.sample),
    request.stablePrompt,
    request.candidatePrompt,
    request.taskPrompt,
  ]) {
    hash.update(`${part.length}:`).update(part);
  }
  return hash.digest("base64url").slice(0, 43);
}

const ERROR_KINDS: Record<string, JudgeErrorKind> = {
  invalid_request_error: "request",
  authentication_error: "auth",
  permission_error: "auth",
  billing_error: "auth",
  not_found_error: "request",
  rate_limit_error: "rate_limited",
  overloaded_error: "overloaded",
  timeout_error: "timeout",
};

type Answer =
  { ok: true; message: Anthropic.Message } | { ok: false; kind: JudgeErrorKind; message: string };

export function createBatchJudge(options: BatchJudgeOptions): TypedJudgePort {
  const rounds = createBatchRounds(options);
  const untilAborted = createAbortRace();

  async function grade(
    request: JudgeRequest<VerdictKind>,
    context: JudgeCallContext,
  ): Promise<JudgeOutcome<Verdict>> {
    const price = priceOf(request.model);
    const { state, record, failed } = openCallLedger({
      request,
      price: price ? batchPrice(price) : undefined,
      now: Date.now,
      temperature: MESSAGES_API_TEMPERATURE,
    });
    const id = customIdOf(request);
    let batchId = "";
    const batched = <O extends JudgeOutcome<Verdict>>(outcome: O): O => ({
      ...outcome,
      call: { ...outcome.call, batched: { batchId } },
    });

    // One request in a round, and once more in the next round when it errored. Its params are
    // built for each attempt and not kept while it waits: once written into the round (as JSON),
    // a call waiting for its batch holds none of its request body (thousands wait at once).
    const bodyOf = () => judgeBodyOf(request, context.cacheTtl).body;
    const send = async (
      params: () => Anthropic.MessageCreateParamsNonStreaming,
      tag: string,
    ): Promise<Answer> => {
      let last: Answer | undefined;
      for (const attempt of [1, 2]) {
        const settled = await untilAborted(
          rounds.submit(`${id}_${tag}${attempt}`, params()),
          context.signal,
        );
        if (!settled)
          return {
            ok: false,
            kind: "request",
            message: `interrupted while message batch ${batchId || "(not yet created)"} was in progress; \`resume\` picks it up`,
          };
        state.attempts++;
        batchId = settled.batchId || batchId;
        last = answerOf(settled);
        if (last.ok || settled.result.type !== "errored") return last;
      }
      return last!;
    };

    context.slot.release();
    try {
      const schema = replySchemaFor(request);
      const first = await send(bodyOf, "");
      if (!first.ok) return batched(failed(first.kind, first.message));
      addUsage(state.usage, first.message.usage);
      state.modelVersion = first.message.model;
      const reading = readVerdict(first.message, schema);
      if (reading.ok)
        return batched({ ok: true, verdict: reading.verdict, call: record(reading.raw) });
      const turns = repairTurns(first.message, reading.problem);
      const second = await send(() => {
        const body = bodyOf();
        return { ...body, messages: [...body.messages, ...turns] };
      }, "r");
      if (!second.ok)
        return batched(
          failed(
            second.kind,
            `${second.message} (while repairing: ${reading.problem})`,
            reading.raw,
          ),
        );
      addUsage(state.usage, second.message.usage);
      state.repaired = true;
      state.modelVersion = second.message.model;
      const repaired = readVerdict(second.message, schema);
      if (repaired.ok)
        return batched({ ok: true, verdict: repaired.verdict, call: record(repaired.raw) });
      return batched(
        failed(
          "malformed",
          `no valid verdict after one repair attempt: ${repaired.problem}`,
          repaired.raw,
        ),
      );
    } finally {
      await context.slot.acquire();
    }
  }

  return { grade } as TypedJudgePort;
}

function answerOf({ batchId, result }: Settled): Answer {
  switch (result.type) {
    case "succeeded":
      return { ok: true, message: result.message };
    case "expired":
      return {
        ok: false,
        kind: "expired",
        message: `the request expired in message batch ${batchId}: the Message Batches API did not process it within 24 hours`,
      };
    case "canceled":
      return {
        ok: false,
        kind: "request",
        message: `message batch ${batchId} was canceled before this request was processed`,
      };
    case "errored": {
      const { type, message } = result.error.error;
      return {
        ok: false,
        kind: ERROR_KINDS[type] ?? "server",
        message: `${message} (${type} in message batch ${batchId || "that was never created"}, also when retried in the next round)`,
      };
    }
  }
}

/**
 * The promise's value, or undefined as soon as the run's signal aborts (the
 * batch goes on; `resume` adopts it). One listener per signal however many
 * calls wait on it, so a round of thousands prints no MaxListenersExceededWarning.
 */
function createAbortRace() {
  const waiting = new Map<AbortSignal, Set<() => void>>();
  return function untilAborted<T>(
    promise: Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T | undefined> {
    if (!signal) return promise;
    if (signal.aborted) return Promise.resolve(undefined);
    let set = waiting.get(signal);
    if (!set) {
      const callbacks = new Set<() => void>();
      set = callbacks;
      waiting.set(signal, callbacks);
      signal.addEventListener(
        "abort",
        () => {
          waiting.delete(signal);
          for (const callback of callbacks) callback();
        },
        { once: true },
      );
    }
    const callbacks = set;
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve(undefined);
      callbacks.add(onAbort);
      promise.then(
        (value) => {
          callbacks.delete(onAbort);
          resolve(value);
        },
        (error: unknown) => {
          callbacks.delete(onAbort);
          reject(error);
        },
      );
    });
  };
}
