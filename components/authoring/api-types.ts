import * as z from "zod";
import { cleanName, codePointLength } from "../../lib/config/clean-name";
import { LIMITS } from "../../lib/config/limits";

// The JSON the authoring routes accept and return. Shared by the route
// handlers (which parse requests with these schemas) and the client
// components (which send them); dates travel as ISO strings.

export const SUITE_NAME = z
  .string()
  .max(100_000, "Keep the name under 200 characters.")
  // The one normal form of names: no control or bidirectional characters; counted in code points.
  .transform((name) => cleanName(name))
  .pipe(
    z
      .string()
      .min(1, "A suite needs a name.")
      .refine((name) => codePointLength(name) <= LIMITS.nameChars, {
        error: `Keep the name under ${LIMITS.nameChars} characters.`,
      }),
  );
/** Generous, but a bound: the editor posts the whole text on every pause. */
export const SUITE_YAML = z.string().max(2_000_000, "The suite is larger than 2 MB.");

export const CreateSuiteBody = z.object({ name: SUITE_NAME, yaml: SUITE_YAML });
export const RenameSuiteBody = z.object({ name: SUITE_NAME });
export const SaveVersionBody = z.object({ yaml: SUITE_YAML });
export const ValidateBody = z.object({ yaml: SUITE_YAML, file: z.string().max(300).optional() });

export interface ApiError {
  error: { code: string; message: string };
}

export interface VersionInfo {
  id: string;
  contentHash: string;
  createdAt: string;
  lines: number;
}

export interface VersionPair {
  from: VersionInfo & { yaml: string };
  to: VersionInfo & { yaml: string };
}

export interface SaveResult {
  version: VersionInfo;
  created: boolean;
}

// The validate route returns the engine's own DraftCheck (pure types; no server code comes along).
export type { DraftCheck, DraftModel, DraftPlan } from "../../lib/engine/plan/check-draft";
export type { ConfigIssue as DraftIssue } from "../../lib/config/types";

/** The Run button posts the editor's text; the server saves it as a version (once) and queues it. */
/** `batch`: "Run as batch", through Message Batches at half price (results may take up to 24 h). */
export const RunSuiteBody = z.object({ yaml: SUITE_YAML, batch: z.boolean().optional() });
export interface RunStarted {
  runId: string;
  cells: number;
}

/**
 * "Check anchors": the draft's text and, optionally, the cursor's line (its
 * criterion only); as you type, the edit's lines (the criteria they touch,
 * or none) and what the check may spend.
 */
export const CheckAnchorsBody = z.object({
  yaml: SUITE_YAML,
  file: z.string().max(300).optional(),
  line: z.number().int().min(1).optional(),
  lines: z.object({ from: z.number().int().min(1), to: z.number().int().min(1) }).optional(),
  maxCostUsd: z.number().min(0).max(100).optional(),
});
export type { AnchorCheck, CheckedAnchor } from "../../lib/engine/check-anchors";

/** The calibration view's "Run calibration": calibrates the suite's newest saved version on the server. */
export interface CalibrationStarted {
  runId: string;
}
