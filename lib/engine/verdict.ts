import { z } from "zod";

// The structured verdicts a judge must return, reasoning first and score after
// (DESIGN.md, the judge protocol). A reply is validated with these before it
// becomes a score; one that does not parse is a judge_error.

export const ScoreVerdictSchema = z.object({
  reasoning: z.string().describe("Step-by-step reasoning about the candidate, written before the score."),
  score: z.number().min(0).max(1).describe("The score in 0..1."),
  evidence: z
    .string()
    .optional()
    .describe("A verbatim span copied from the candidate that justifies the verdict."),
});

export const EvidenceVerdictSchema = ScoreVerdictSchema.extend({
  // Required, but may be empty: a judge that finds no span to cite says so,
  // and the engine scores that criterion 0 rather than calling it malformed.
  evidence: z.string().describe("A verbatim span copied from the candidate that justifies the verdict; empty if no span supports it."),
});

export type ScoreVerdict = z.infer<typeof ScoreVerdictSchema>;

export const VERDICT_TOOL_NAME = "record_verdict";

export function verdictSchemaFor(kind: "score" | "score_with_evidence"): z.ZodType<ScoreVerdict> {
  return kind === "score_with_evidence" ? EvidenceVerdictSchema : ScoreVerdictSchema;
}
