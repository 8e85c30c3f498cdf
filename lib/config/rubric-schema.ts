import * as z from "zod";
import { categoryRubricFields } from "./category-schema";
import { LIMITS, atMost, formatCount, likertFits, nameString, weightSchema } from "./limits";

// The rubric half of the YAML language: criteria, scales, decision trees and
// the rubric forms an eval or the top-level rubrics: map may hold. schema.ts
// builds the suite (judges, matrices, evals) on top of it.

export const threshold = z
  .number()
  .min(0, { error: "threshold must be between 0 and 1" })
  .max(1, { error: "threshold must be between 0 and 1" })
  .describe("Pass mark on the normalised 0..1 scale. Default 0.7.");

export const AGGREGATIONS = ["weighted_average", "min", "worst"] as const;
export const SCALE_NAMES = ["unit", "boolean", "letter"] as const;
export const PRESET_NAMES = [
  "helpfulness",
  "groundedness",
  "safety",
  "format-adherence",
  "conciseness",
] as const;

export const AnchorSchema = z
  .strictObject({
    response: z.string().describe("A labelled sample response."),
    score: z
      .number()
      .min(0, { error: "an anchor score must be between 0 and 1" })
      .max(1, { error: "an anchor score must be between 0 and 1" })
      .describe("The score a human gave this response, in 0..1."),
  })
  .describe(
    'A calibration anchor. Rendered into the judge prompt as Response: "..." -> score X.XX ' +
      'under a "Calibration examples" heading.',
  );

export const WhenSchema = z
  .strictObject({
    contains: z
      .string()
      .optional()
      .describe("Grade the criterion only when the candidate contains this substring."),
    regex: z
      .string()
      .optional()
      .describe(
        "Grade the criterion only when the candidate matches this regular expression (RE2 " +
          "syntax: no backreferences or lookaround).",
      ),
  })
  .describe(
    "A deterministic predicate (no model call). A criterion whose predicate does not hold is skipped.",
  );

export const CriterionSchema = z
  .strictObject({
    name: nameString.describe("Short name shown in reports."),
    description: z
      .string()
      .min(1)
      .describe("What the judge checks. For a guard, the thing that must NOT hold."),
    weight: weightSchema
      .optional()
      .describe("Relative weight in the weighted average. Default 1; must be > 0."),
    required: z
      .boolean()
      .optional()
      .describe("Hard gate: below its threshold, the eval fails whatever the average."),
    guard: z
      .boolean()
      .optional()
      .describe(
        "Negative criterion: the description states something that must not hold. The " +
          "score is inverted, and if the judge finds it present the eval fails.",
      ),
    threshold: threshold
      .optional()
      .describe("This criterion's own gate, overriding the rubric threshold."),
    when: WhenSchema.optional(),
    examples: z
      .array(AnchorSchema)
      .max(LIMITS.anchors, atMost(LIMITS.anchors, "a criterion has at most {n} anchors"))
      .optional()
      .describe("Calibration anchors: labelled responses with the score a human gave."),
  })
  .describe("One named criterion, judged on its own.");

export const LikertSchema = z.strictObject({
  likert: z
    .strictObject({
      min: z.int().describe("Lowest point of the band."),
      max: z
        .int()
        .describe(
          `Highest point of the band: at most ${LIMITS.likertPoints - 1} above min (${LIMITS.likertPoints} points).`,
        ),
    })
    // Each point is a label button and a row and column of the calibration matrix: the range is work, so it is bounded.
    .refine((band) => likertFits(band), {
      path: ["max"],
      error: (issue) => {
        const band = issue.input as { min: number; max: number };
        return `a likert scale has at most ${formatCount(LIMITS.likertPoints)} points: ${band.min}..${band.max} has ${formatCount(band.max - band.min + 1)} (max may be at most min + ${LIMITS.likertPoints - 1})`;
      },
    })
    .describe(
      `An integer band, shown as e.g. 4.0/5; at most ${LIMITS.likertPoints} points (1..5, 0..10, 0..100).`,
    ),
});

export const ScaleSchema = z
  .union([z.enum(SCALE_NAMES), LikertSchema], {
    error: "unknown scale: valid scales are unit, boolean, letter, or { likert: { min, max } }",
  })
  .describe(
    "How scores read to a person: unit (0.80), boolean (pass/fail), letter (A..F), or " +
      "likert { min, max }. The 0..1 value is unchanged.",
  );

export const AggregationSchema = z
  .enum(AGGREGATIONS, {
    error: "unknown aggregation: valid values are weighted_average, min, worst",
  })
  .describe(
    "How criterion scores combine: weighted_average (default), or min (alias worst): the " +
      "worst criterion caps the score.",
  );

export interface TreeAskInput {
  ask: string;
  yes: TreeNodeInput;
  no: TreeNodeInput;
}
export interface TreeLeafInput {
  score: number;
  reason?: string;
}
export type TreeNodeInput = TreeAskInput | TreeLeafInput;

export const TreeLeafSchema = z
  .strictObject({
    score: z
      .number()
      .min(0, { error: "a leaf score must be between 0 and 1" })
      .max(1, { error: "a leaf score must be between 0 and 1" })
      .describe("The score this leaf gives, in 0..1."),
    reason: z.string().optional().describe("Why this leaf gives that score; shown in the report."),
  })
  .describe("A score leaf: ends the walk.");

export const TreeAskSchema: z.ZodType<TreeAskInput> = z
  .strictObject({
    ask: z
      .string()
      .min(1)
      .describe("A narrow yes/no question for the judge. Yes is a judge score of 0.5 or more."),
    get yes() {
      return TreeNodeSchema;
    },
    get no() {
      return TreeNodeSchema;
    },
  })
  .describe("A question node: the walk descends yes or no.");

export const TreeNodeSchema: z.ZodType<TreeNodeInput> = z
  .union([TreeAskSchema, TreeLeafSchema], {
    error: "a tree node is either { ask, yes, no } or a leaf { score, reason }",
  })
  .describe("A decision-tree node: { ask, yes, no } or { score, reason }.");

const rubricOptions = {
  threshold: threshold.optional(),
  strict: z.boolean().optional().describe("Require a perfect score: anything short of 1.0 fails."),
  require_evidence: z
    .boolean()
    .optional()
    .describe(
      "Each criterion's verdict must cite a verbatim span of the candidate; a missing or " +
        "invented span scores 0 and fails the eval.",
    ),
  aggregation: AggregationSchema.optional(),
  scale: ScaleSchema.optional(),
};

const structuredRubricFields = {
  description: z.string().optional().describe("What this rubric is for (documentation only)."),
  preset: z
    .string()
    .optional()
    .describe(
      `A built-in preset: ${PRESET_NAMES.join(", ")}. Extra criteria are appended to the preset's own.`,
    ),
  criteria: z
    .array(CriterionSchema)
    .min(1)
    .max(LIMITS.criteria, atMost(LIMITS.criteria, "a rubric has at most {n} criteria"))
    .optional()
    .describe("Weighted criteria, each judged separately."),
  tree: TreeNodeSchema.optional().describe("A decision tree: one yes/no question per node."),
  ...rubricOptions,
  ...categoryRubricFields,
};

export const RubricDefinitionSchema = z
  .union(
    [
      z.string().min(1).describe("A free-form rubric: one holistic judgment."),
      z
        .strictObject(structuredRubricFields)
        .describe("A structured rubric: criteria, tree, preset or categories."),
    ],
    { error: "a rubric is a free-form string or an object with criteria, tree or preset" },
  )
  .describe("A rubric: a free-form string, or an object with criteria, tree or preset.");

export const EvalRubricSchema = z
  .union(
    [
      z.string().min(1).describe("A free-form rubric: one holistic judgment."),
      z
        .strictObject({
          ref: z.string().optional().describe("Name of a rubric under the top-level rubrics: map."),
          ...structuredRubricFields,
        })
        .describe(
          "A structured rubric, or { ref } to a named one with inline threshold / strict overrides.",
        ),
    ],
    { error: "a rubric is a free-form string or an object with criteria, tree, preset or ref" },
  )
  .describe(
    "The rubric to grade by: a free-form string, criteria, a tree, a preset, or { ref: name }.",
  );

export type CriterionInput = z.output<typeof CriterionSchema>;
export type ScaleInput = z.output<typeof ScaleSchema>;
export type RubricDefinitionInput = z.output<typeof RubricDefinitionSchema>;
export type EvalRubricInput = z.output<typeof EvalRubricSchema>;
