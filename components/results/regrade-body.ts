import { z } from "zod";

// What Re-grade with… posts (app/api/runs/[id]/regrade): a stored version of
// the run's suite (default: its newest), and optionally another judge model.

export const RegradeBody = z
  .object({
    versionId: z.uuid({ error: "versionId must be a suite version's id" }).optional(),
    judge: z.string().trim().min(1, { error: "judge must name a model" }).max(200).optional(),
  })
  .strict();

export interface RegradeStartedView {
  runId: string;
  cells: number;
  /** What was left out and why. */
  notes: string[];
}
