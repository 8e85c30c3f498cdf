import type { ComputeAgreement } from "../store/run-agreement";
import { suiteWorkers } from "./suite-workers";

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
