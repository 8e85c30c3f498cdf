import { createHash } from "node:crypto";
import type { EvalResult } from "../engine/results/report";

// Code-scanning tools match findings across runs by fingerprint, so it is
// derived from what identifies the finding (the result id and its status)
// and never from the score, reasoning or cost, which change from run to run.

export function resultFingerprint(result: Pick<EvalResult, "id" | "status">): string {
  return createHash("sha256").update(`${result.id}\u0000${result.status}`).digest("hex");
}

/** The path of the file that defined the eval, falling back to the suite file. */
export function resultPath(result: EvalResult, suiteFile: string): string {
  return (result.location?.file ?? suiteFile).replace(/\\/g, "/");
}
