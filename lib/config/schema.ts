import * as z from "zod";
import { DocumentSchema } from "./category-schema";
import { CompareSchema } from "./compare-schema";
import { DatasetCandidatesSchema, DatasetSchema } from "./dataset-schema";
import { LIMITS, atMost, nameString } from "./limits";
import { ModelNameSchema, ProvidersSchema } from "./provider-schema";
import { AgentSchema, ServerSchema } from "./live-schema";
import { ReviewSettingsSchema } from "./review-settings";
import { EvalRubricSchema, RubricDefinitionSchema, threshold } from "./rubric-schema";

// The one description of the rubric YAML language. Everything else (the loader,
// the JSON Schema for editors, the engine's types) is derived from it.
// Field names are snake_case, as the rubric-scoring guide writes them. The
// rubric forms themselves (criteria, scales, trees) are in rubric-schema.ts.

export const PANEL_AGGREGATES = [
  "mean",
  "median",
  "majority",
  "conservative",
  "optimistic",
  "unanimous",
] as const;

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
export type JudgeInput = z.output<typeof JudgeSchema>;
