import { loadSuite, formatIssue } from "../config/load-suite";
import type { LoadResult } from "../config/types";
import type { PriceOf } from "../engine/plan/explain-plan";
import type { JudgePort } from "../engine/ports/judge-port";
import type { RunOptions } from "../engine/run-suite";
import { runCalibration } from "../engine/run-calibration";
import { DEFAULT_TOLERANCE } from "../engine/trust/calibration/calibration-stats";
import { createRedactor } from "../engine/results/redact-values";
import {
  CALIBRATION_LIMITS,
  calibrationSizeIssue,
} from "../engine/trust/calibration/calibration-size";
import type { PrismaClient } from "./generated/client";
import { createCalibrationStore } from "./calibration-store";
import { isUuid } from "./uuid";
import type { StartedBy } from "./run-store";

// The dashboard's "Run calibration": the suite's newest saved version,
// calibrated with the server's judge exactly as `rubric-studio calibrate`
// does, stored as a calibration run. Results with codes, never exceptions for
// a user's mistake (a suite with errors, nothing to calibrate).

export type CalibrateSuiteResult =
  | { ok: true; value: { runId: string } }
  | {
      ok: false;
      code: "not_found" | "bad_request" | "too_complex" | "busy" | "failed";
      message: string;
    };

/**
 * How the saved text is loaded: in this thread by default; the dashboard loads it on a worker
 * thread, under a time limit.
 */
export type LoadText = (input: {
  text: string;
  file: string;
}) => Promise<
  | { ok: true; value: LoadResult }
  | { ok: false; code: "too_complex" | "busy" | "failed"; message: string }
>;

const loadHere: LoadText = async (input) => ({ ok: true, value: loadSuite(input) });

export async function calibrateStoredSuite(input: {
  prisma: PrismaClient;
  suiteId: string;
  judge: JudgePort;
  judgeModel: string;
  toolVersion: string;
  priceOf: PriceOf;
  startedBy: StartedBy;
  concurrency?: number;
  loadText?: LoadText;
  /**
   * Which provider serves each judge model (the dashboard's: the server's providers); a model whose
   * provider has no key defers.
   */
  resolveModel?: RunOptions["resolveModel"];
  /** The secret values the judge holds and sends (ProviderSetup's): removed by value before the result is stored. */
  secrets?: readonly string[];
}): Promise<CalibrateSuiteResult> {
  const { prisma } = input;
  if (!isUuid(input.suiteId)) return { ok: false, code: "not_found", message: "No such suite." };
  const suite = await prisma.suite.findUnique({
    where: { id: input.suiteId },
    include: { versions: { orderBy: { createdAt: "desc" }, take: 1 } },
  });
  if (!suite) return { ok: false, code: "not_found", message: "No such suite." };
  const version = suite.versions[0];
  if (!version)
    return {
      ok: false,
      code: "bad_request",
      message: "The suite has no saved version yet: save it first.",
    };
  const attempt = await (input.loadText ?? loadHere)({ text: version.yaml, file: suite.name });
  if (!attempt.ok) return attempt;
  const loaded = attempt.value;
  if (!loaded.ok)
    return {
      ok: false,
      code: "bad_request",
      message: `The saved version has errors: ${loaded.issues.slice(0, 3).map(formatIssue).join("; ")}`,
    };
  // Graded in the server's process: bounded before any call.
  const tooBig = calibrationSizeIssue({
    suite: loaded.value,
    maxJudgeCalls: CALIBRATION_LIMITS.request,
    hint: "run rubric-studio calibrate on this suite instead",
  });
  if (tooBig) return { ok: false, code: "bad_request", message: formatIssue(tooBig) };
  const concurrency = input.concurrency ?? 8;
  // Stored redacted, as run results are.
  const result = createRedactor(input.secrets).deep(
    await runCalibration(
      {
        suite: loaded.value,
        defaultModel: input.judgeModel,
        concurrency,
        toolVersion: input.toolVersion,
        tolerance: DEFAULT_TOLERANCE,
        ...(input.resolveModel ? { resolveModel: input.resolveModel } : {}),
      },
      { judge: input.judge, now: Date.now, priceOf: input.priceOf },
    ),
  );
  if (result.probes === 0)
    return {
      ok: false,
      code: "bad_request",
      message: "Nothing to calibrate: add examples (anchors) to a criterion, then save.",
    };
  const runId = await createCalibrationStore(prisma).saveCalibrationOf({
    suiteId: suite.id,
    suiteVersionId: version.id,
    result,
    startedBy: input.startedBy,
    config: {
      file: suite.name,
      toolVersion: input.toolVersion,
      judgeModel: input.judgeModel,
      concurrency,
      timeoutSeconds: 60,
      tolerance: result.tolerance,
    },
  });
  return { ok: true, value: { runId } };
}
