import type { EvalResult } from "../engine/results/report";
import { BaselineTally, type BaselineVerdict } from "../engine/trust/compare-baseline";
import { previousOf } from "../engine/trust/regrade/regrade";
import { needsPerson, type ReviewQuestion } from "../engine/trust/people/needs-person";
import type { ReportStreams } from "./stream-reports";

// Each result of a CLI run on its way to the reports (issue 20), in the run's order. With a
// baseline (`--baseline`, or the source run of a `regrade`), results wait in windows of
// BASELINE_WINDOW for their baseline's verdicts, looked up by id in one query, are compared
// (BaselineTally: the counts, and the deltas the reports show) and, for a regrade, carry their
// previous score and status; then they go on in order. Nothing is kept per result but what a
// format that renders the whole report needs (collected, up to stream-reports.ts's limit) and the
// questions a run stored with history leaves for a person (the review queue).

export const BASELINE_WINDOW = 500;

export interface ResultPipeline {
  /**
   * Takes the next result in the run's order; a promise (a stored run: what its write stored,
   * lib/cli/store-results.ts) goes on once it resolves, still in order, so the reports show what
   * the run history holds.
   */
  push(result: EvalResult | Promise<EvalResult>): void;
  /** Resolves once every result pushed so far has gone to the reports (throws if a lookup failed). */
  drained(): Promise<void>;
  /** The results collected for a format that renders the whole report (empty when none asked). */
  readonly collected: EvalResult[];
  /** The review queue's questions of the results so far (when asked). */
  readonly questions: ReviewQuestion[];
}

export function createResultPipeline(input: {
  streams: Pick<ReportStreams, "result" | "collects">;
  baseline?: {
    tally: BaselineTally;
    /** The baseline's verdicts of these result ids. */
    lookup: (ids: string[]) => Promise<Map<string, BaselineVerdict>>;
    /** A regrade: each result carries its source's score and status (and the criteria that flipped) as `previous`. */
    previous: boolean;
  };
  /** Gather the review queue's questions (a stored run). */
  questions: boolean;
}): ResultPipeline {
  const { streams, baseline } = input;
  const collected: EvalResult[] = [];
  const questions: ReviewQuestion[] = [];
  const emit = (result: EvalResult) => {
    streams.result(result);
    if (streams.collects) collected.push(result);
    if (input.questions && result.status !== "skipped") questions.push(...needsPerson([result]));
  };
  let window: EvalResult[] = [];
  let chain: Promise<void> = Promise.resolve();
  const compare = async (results: EvalResult[]) => {
    const before = await baseline!.lookup(results.map((r) => r.id));
    for (const result of results) {
      const verdict = before.get(result.id);
      baseline!.tally.add(result, verdict);
      emit(
        baseline!.previous && verdict
          ? { ...result, previous: previousOf({ now: result, before: verdict }) }
          : result,
      );
    }
  };
  const send = () => {
    const full = window;
    window = [];
    chain = chain.then(() => compare(full));
    // Seen by drained(); meanwhile a failed lookup is not an unhandled rejection.
    chain.catch(() => undefined);
  };
  const accept = (result: EvalResult) => {
    if (!baseline) return emit(result);
    window.push(result);
    if (window.length >= BASELINE_WINDOW) send();
  };
  // Results waiting for their writes, in order (undefined until the first promise).
  let order: Promise<void> | undefined;
  return {
    push(result) {
      if (!order && !(result instanceof Promise)) return accept(result);
      order = (order ?? Promise.resolve()).then(() => result).then(accept);
      // Seen by drained(); meanwhile a failed report write is not an unhandled rejection.
      order.catch(() => undefined);
    },
    async drained() {
      await order;
      if (window.length > 0) send();
      await chain;
    },
    collected,
    questions,
  };
}
