import * as z from "zod";
import { categoryRubricFields, DocumentSchema } from "./category-schema";
import { CompareSchema } from "./compare-schema";
import { DatasetCandidatesSchema, DatasetSchema } from "./dataset-schema";
import { LIMITS, atMost, formatCount, likertFits, nameString, weightSchema } from "./limits";
import { ModelNameSchema, ProvidersSchema } from "./provider-schema";
import { AgentSchema, ServerSchema } from "./live-schema";
import { ReviewSettingsSchema } from "./review-settings";

// The one description of the rubric YAML language. Everything else (the loader,
// the JSON Schema for editors, the engine's types) is derived from it.
// Field names are snake_case, as the rubric-scoring guide writes them.

const threshold = z
  .number()
  .min(0, { error: "threshold must be between 0 and 1" })
  .max(1, { error: "threshold must be between 0 and 1" })
  .describe("Pass mark on the normalised 0..1 scale. Default 0.7.");

export const AGGREGATIONS = ["weighted_average", "min", "worst"] as const;
export const SCALE_NAMES = ["unit", "boolean", "letter"] as const;
export const PANEL_AGGREGATES = [
  "mean",
  "median",
  "majority",
  "conservative",
  "optimistic",
  "unanimous",
] as const;
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

export const JurySchema = z
  .strictObject({
    size: z
      .int()
      .min(1, { error: "jury size must be at least 1" })
      .max(LIMITS.jury, atMost(LIMITS.jury, "jury size must be at most {n}"))
      .describe("How many times to grade the rubric."),
    consensus: z
      .number()
      .min(0, { error: "consensus must be between 0 and 1" })
      .max(1, { error: "consensus must be between 0 and 1" })
      .optional()
      .describe("Fraction of jurors that must pass (default 0.5). 0.66 means two of three."),
  })
  .describe("Grade the rubric several times with the same model and pass by consensus.");

export const JudgeSchema = z
  .strictObject({
    model: ModelNameSchema.optional().describe(
      "Judge model, e.g. claude-sonnet-4-6, openai:gpt-4.1-mini or local:qwen3-8b. " +
        "Default: RUBRIC_STUDIO_JUDGE_MODEL or claude-sonnet-4-6.",
    ),
    max_tokens: z
      .int()
      .min(64)
      .max(64000)
      .optional()
      .describe("Output token limit per judge call. Default 1024."),
    jury: JurySchema.optional(),
    panel: z
      .array(ModelNameSchema)
      .min(2, { error: "a panel needs at least two models" })
      .max(LIMITS.panel, atMost(LIMITS.panel, "a panel has at most {n} models"))
      .optional()
      .describe("Grade once per model and combine the per-model verdicts."),
    aggregate: z
      .enum(PANEL_AGGREGATES, {
        error:
          "unknown aggregate: valid values are mean, median, majority, conservative, optimistic, unanimous",
      })
      .optional()
      .describe(
        "How a panel combines: mean (default) or median of scores against the threshold, " +
          "or majority of per-model passes. A category rubric's jury or panel: majority " +
          "(default), conservative, optimistic or unanimous.",
      ),
    tie_break: z
      .enum(["pass", "fail"], { error: "tie_break must be pass or fail" })
      .optional()
      .describe("Settles an even majority split. Default fail."),
  })
  .describe("Overrides the judge model, and optionally runs a jury or a panel.");

const matrixAxisMax = atMost(LIMITS.matrixAxis, "a matrix axis has at most {n} values");

export const MatrixSchema = z
  .strictObject({
    models: z
      .array(ModelNameSchema)
      .min(1)
      .max(LIMITS.matrixAxis, matrixAxisMax)
      .optional()
      .describe("Judge models: one cell per model (vendors may be mixed)."),
    prompts: z
      .array(z.string().min(1))
      .min(1)
      .max(LIMITS.matrixAxis, matrixAxisMax)
      .optional()
      .describe("Graded prompts: one cell per prompt."),
    agents: z
      .array(ModelNameSchema)
      .min(1)
      .max(LIMITS.matrixAxis, matrixAxisMax)
      .optional()
      .describe(
        "Agent models for a live run (an eval without response): one cell per model, so " +
          "one server is compared across agent models (vendors may be mixed).",
      ),
  })
  .describe("Fan one eval out over the cartesian product of the axes set.");

export const EvalSchema = z
  .strictObject({
    name: nameString.describe("Unique name of the eval; report rows are named after it."),
    description: z.string().optional().describe("What this eval checks (documentation only)."),
    server: z
      .string()
      .optional()
      .describe("Name of the MCP server the prompt runs against (live candidates)."),
    prompt: z
      .string()
      .optional()
      .describe(
        "The user prompt. Recorded with a fixed response, or run as an agent when response is absent.",
      ),
    response: z
      .string()
      .optional()
      .describe("A fixed candidate response to grade. Omit it to grade a live agent run."),
    rubric: EvalRubricSchema,
    threshold: threshold.optional(),
    judge: JudgeSchema.optional(),
    agent: AgentSchema.optional().describe(
      "The live agent's settings for this eval; they override the suite's agent: block field by field.",
    ),
    matrix: MatrixSchema.optional(),
    document: DocumentSchema.optional(),
    compare: CompareSchema.optional(),
    dataset: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A dataset under datasets: whose annotated items are human labels for this eval's " +
          "rubric (rubric-studio calibrate).",
      ),
    candidates: DatasetCandidatesSchema.optional(),
    reference: z
      .boolean()
      .optional()
      .describe(
        "Reference-guided grading of dataset items. Default true: when an item's candidate is generated or live (not its own expected_output), its expected_output, expected_outputs and context go to the judge as a labelled known-good reference. false grades the candidate without them.",
      ),
  })
  .describe("One rubric eval.");

export const SuiteSchema = z
  .strictObject({
    version: z
      .union([z.string(), z.number()])
      .optional()
      .describe("Free-form version label of this suite."),
    description: z.string().optional().describe("What this suite checks."),
    judge: JudgeSchema.optional().describe(
      "Default judge settings for every eval; an eval's judge: block overrides them field by field.",
    ),
    agent: AgentSchema.optional().describe(
      "Default live-agent settings for every eval without response; an eval's agent: block " +
        "overrides them field by field.",
    ),
    providers: ProvidersSchema.optional(),
    servers: z.record(z.string(), ServerSchema).optional().describe("Named MCP servers."),
    rubrics: z
      .record(z.string(), RubricDefinitionSchema)
      .optional()
      .describe("Reusable rubrics, referenced as rubric: { ref: name }."),
    datasets: z
      .record(z.string(), DatasetSchema)
      .optional()
      .describe("Reference datasets (items with annotations), referenced by an eval's dataset:."),
    review: ReviewSettingsSchema.optional(),
    evals: z
      .array(EvalSchema)
      .min(1, { error: "a suite needs at least one eval" })
      .max(LIMITS.evals, atMost(LIMITS.evals, "a suite has at most {n} evals"))
      .describe("The rubric evals."),
  })
  .describe("A Rubric Studio suite: rubric evals graded by an LLM judge.");

export type SuiteInput = z.input<typeof SuiteSchema>;
export type EvalInput = z.output<typeof EvalSchema>;
export type CriterionInput = z.output<typeof CriterionSchema>;
export type JudgeInput = z.output<typeof JudgeSchema>;
export type ScaleInput = z.output<typeof ScaleSchema>;
export type RubricDefinitionInput = z.output<typeof RubricDefinitionSchema>;
export type EvalRubricInput = z.output<typeof EvalRubricSchema>;
