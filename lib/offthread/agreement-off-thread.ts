import type { ComputeAgreement } from "../store/run-agreement";
import { createSuiteWorkers, suiteWorkers, type SuiteWorkers } from "./suite-workers";

/**
 * The agreement view's figures computed on one of the server's worker threads (its bootstrap over
 * 10,000 results is seconds of CPU, a minute on a loaded machine for 2,500 evals of 4 judges), under the pool's time and heap limits: what the dashboard
 * passes `runAgreement` for a run that kept no figures (still running, or finished by an older
 * version). The thread's answer, or why there is none (too long, the server busy).
 */
export const agreementOffThread: ComputeAgreement = async (sample) => {
  const answer = await suiteWorkers().run({ kind: "agreement", ...sample });
  return answer.ok ? answer : { ok: false, message: answer.message };
};

/** How long a finishing run's agreement may compute on its thread. */
const FINISH_LIMIT_MS = 30 * 60_000;

/**
 * A worker process's own thread for the agreement of the runs it finishes (`rubric-studio worker`,
 * `eval --queue`, the dashboard's queue worker): one thread, started at the first finish, under a
 * long time limit (nobody waits on it but the worker, whose event loop stays free for its
 * heartbeats and, in the dashboard's process, the embedded database; an idle thread does not keep
 * the process alive). `workerFile` is bin/suite-worker.mjs, found by the caller from its own file.
 */
export function agreementThread(workerFile: string): ComputeAgreement {
  let pool: SuiteWorkers | undefined;
  return async (sample) => {
    pool ??= createSuiteWorkers({ workerFile, size: 1, timeLimitMs: FINISH_LIMIT_MS });
    const answer = await pool.run({ kind: "agreement", ...sample });
    return answer.ok ? answer : { ok: false, message: answer.message };
  };
}
