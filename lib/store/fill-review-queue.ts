import {
  calibrationQuestions,
  needsPerson,
  type ReviewQuestion,
} from "../engine/trust/people/needs-person";
import type { EvalResult } from "../engine/results/report";
import type { CalibrationResult } from "../engine/results/trust";
import type { PrismaClient } from "./generated/client";
import { createReviewQueue } from "./review-queue";

// Called wherever a run is finished (run-store.ts's finishRun: the CLI, the
// dashboard's workers, a cancel; calibration-store.ts for calibrations): the
// questions the judges left for a person go to the suite's review queue.
// Enqueueing skips what is queued already, so finishing a run twice adds nothing. A run streamed
// by the CLI gathers its questions as it goes (`questions`) instead of handing every result.

export async function fillReviewQueue(
  prisma: PrismaClient,
  input: {
    runId: string;
    results?: readonly EvalResult[];
    questions?: readonly ReviewQuestion[];
    calibration?: CalibrationResult;
  },
): Promise<number> {
  const questions = [
    ...(input.results ? needsPerson([...input.results]) : []),
    ...(input.questions ?? []),
    ...(input.calibration ? calibrationQuestions(input.calibration) : []),
  ];
  return createReviewQueue(prisma).enqueue({ runId: input.runId, questions });
}
