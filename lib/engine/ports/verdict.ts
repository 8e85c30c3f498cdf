import * as z from "zod";

// The structured verdicts a judge must return, reasoning first and score after
// (DESIGN.md, the judge protocol). A reply is validated with these before it
// becomes a score; one that does not parse is a judge_error.

export const ScoreVerdictSchema = z.object({
  reasoning: z
    .string()
    .describe("Step-by-step reasoning about the candidate, written before the score."),
  score: z.number().min(0).max(1).describe("The score in 0..1."),
  evidence: z
    .string()
    .optional()
    .describe("A verbatim span copied from the candidate that justifies the verdict."),
});

export const EvidenceVerdictSchema = ScoreVerdictSchema.extend({
  // Required, but may be empty: a judge that finds no span to cite says so,
  // and the engine scores that criterion 0 rather than calling it malformed.
  evidence: z
    .string()
    .describe(
      "A verbatim span copied from the candidate that justifies the verdict; empty if no span supports it.",
    ),
});

export type ScoreVerdict = z.infer<typeof ScoreVerdictSchema>;

export const VERDICT_TOOL_NAME = "record_verdict";

// Category verdicts (the Go package's categorical scales): pass / partial /
// fail with the evidence quoted and the findings raised; a binary scale has
// no partial. Findings carry no id or category: the engine assigns both.
const SEVERITY = z.enum(["critical", "high", "medium", "low", "info"]);

export const FindingVerdictSchema = z.object({
  severity: SEVERITY.describe(
    "critical and high block approval; medium should be fixed; low is nice to fix; info is informational.",
  ),
  title: z.string().describe("A brief summary of the issue."),
  description: z.string().describe("What is wrong, in detail."),
  recommendation: z.string().describe("How to fix it."),
  evidence: z.string().optional().describe("A quote or reference that shows the issue."),
  // The Go package's Finding has owner and effort: asked for, so reports and next steps carry them.
  owner: z
    .string()
    .optional()
    .describe("Who should address it: a role or team (product, engineering, security...)."),
  effort: z
    .enum(["low", "medium", "high"])
    .optional()
    .describe("The work required to fix it: low, medium or high."),
});

const ChecklistVerdictSchema = z
  .object({
    present: z
      .array(z.string())
      .describe("Checklist items (copied exactly from the list) that the document contains."),
    missing: z
      .array(z.string())
      .describe("Checklist items (copied exactly from the list) that the document lacks."),
  })
  .describe("For a checklist category only: which items are present and which are missing.");

const categoryVerdictFields = {
  reasoning: z
    .string()
    .describe(
      "Step-by-step reasoning about the document for this category, written before the score.",
    ),
  score: z.enum(["pass", "partial", "fail"]).describe("pass, partial or fail."),
  evidence: z
    .array(z.string())
    .describe("Verbatim quotes from the document that support the score."),
  findings: z
    .array(FindingVerdictSchema)
    .describe("Issues found in this category; empty when there are none."),
  checklist: ChecklistVerdictSchema.optional(),
};

export const CategoryVerdictSchema = z.object(categoryVerdictFields);
export const BinaryCategoryVerdictSchema = z.object({
  ...categoryVerdictFields,
  score: z.enum(["pass", "fail"]).describe("pass or fail: this scale has no partial."),
});
export const HolisticVerdictSchema = z.object({
  reasoning: z
    .string()
    .describe("Step-by-step reasoning about the whole document, written before the scores."),
  categories: z
    .array(
      z.object({
        category: z.string().describe("The category id, exactly as listed."),
        ...categoryVerdictFields,
      }),
    )
    .describe("One entry per category of the rubric, by id."),
});

export const PairwiseVerdictSchema = z.object({
  reasoning: z
    .string()
    .describe("Step-by-step comparison of the two responses, written before the winner."),
  winner: z
    .enum(["A", "B", "tie", "uncertain"])
    .describe(
      "A or B for the better response, tie when they are equally good, uncertain when you cannot tell.",
    ),
  confidence: z.number().min(0).max(1).describe("How sure you are of the winner, in 0..1."),
  category_scores: z
    .array(
      z.object({
        category: z.string().describe("The criterion name, exactly as listed."),
        winner: z.enum(["A", "B", "tie", "uncertain"]),
        margin: z
          .number()
          .min(0)
          .max(1)
          .describe("How much better the winner is on this criterion, 0..1."),
        reasoning: z.string(),
      }),
    )
    .optional()
    .describe("One entry per listed criterion, when criteria are listed."),
});

export type CategoryVerdict = z.infer<typeof CategoryVerdictSchema>;
export type HolisticVerdict = z.infer<typeof HolisticVerdictSchema>;
export type PairwiseVerdict = z.infer<typeof PairwiseVerdictSchema>;

/** The verdict each kind of request asks for. */
export interface VerdictByKind {
  score: ScoreVerdict;
  score_with_evidence: ScoreVerdict;
  category: CategoryVerdict;
  category_binary: CategoryVerdict;
  category_holistic: HolisticVerdict;
  pairwise: PairwiseVerdict;
}
export type VerdictKind = keyof VerdictByKind;
export type ScoreVerdictKind = "score" | "score_with_evidence";
export type VerdictOf<K extends VerdictKind> = VerdictByKind[K];
export type Verdict = VerdictByKind[VerdictKind];

const SCHEMAS: { [K in VerdictKind]: z.ZodType<VerdictByKind[K]> } = {
  score: ScoreVerdictSchema,
  score_with_evidence: EvidenceVerdictSchema,
  category: CategoryVerdictSchema,
  category_binary: BinaryCategoryVerdictSchema,
  category_holistic: HolisticVerdictSchema,
  pairwise: PairwiseVerdictSchema,
};

export function verdictSchemaFor<K extends VerdictKind>(kind: K): z.ZodType<VerdictOf<K>> {
  return SCHEMAS[kind];
}

/** The names a reply left out of `given`, matched as the engine reads them back (trimmed; a pair's criteria also ignoring case). */
function missingNames(input: { expected: readonly string[]; given: string[]; anyCase: boolean }) {
  const norm = (name: string) => (input.anyCase ? name.trim().toLowerCase() : name.trim());
  const given = new Set(input.given.map(norm));
  return input.expected.filter((name) => !given.has(norm(name)));
}

/**
 * The schema a reply to a request must match: its kind's schema and, for a
 * holistic review, one entry per category the request names; for a pairwise
 * comparison with criteria, one category_scores entry per criterion. A reply
 * that leaves one out is malformed like any other, so it gets the one repair
 * attempt (DESIGN.md, the repair-once rule) and then is a judge_error, never
 * a silent tie.
 */
export function replySchemaFor<K extends VerdictKind>(request: {
  verdict: K;
  categories?: readonly string[];
}): z.ZodType<VerdictOf<K>> {
  const expected = request.categories;
  if (!expected?.length) return verdictSchemaFor(request.verdict);
  if (request.verdict === "pairwise") {
    const complete = PairwiseVerdictSchema.superRefine((verdict, ctx) => {
      const given = (verdict.category_scores ?? []).map((entry) => entry.category);
      const missing = missingNames({ expected, given, anyCase: true });
      if (missing.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["category_scores"],
          message: `no entry for criterion ${missing.map((name) => `"${name}"`).join(", ")}: give one category_scores entry per criterion, its name exactly as listed (${expected.join(", ")})`,
        });
      }
    });
    return complete as unknown as z.ZodType<VerdictOf<K>>;
  }
  if (request.verdict !== "category_holistic") return verdictSchemaFor(request.verdict);
  const complete = HolisticVerdictSchema.superRefine((verdict, ctx) => {
    const given = verdict.categories.map((entry) => entry.category);
    const missing = missingNames({ expected, given, anyCase: false });
    if (missing.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["categories"],
        message: `no entry for category ${missing.map((id) => `"${id}"`).join(", ")}: give one entry per category id (${expected.join(", ")})`,
      });
    }
  });
  return complete as unknown as z.ZodType<VerdictOf<K>>;
}
