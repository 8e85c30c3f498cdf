import * as z from "zod";
import { LIMITS, atMost, nameString, weightSchema } from "./limits";

// The fourth rubric form: a category rubric, the YAML spelling of the Go
// package's RubricSet (spec 004). Field names are snake_case like the rest of
// the language; `rubric-studio import` translates the Go JSON (camelCase).
// Merged into the structured rubric object by schema.ts.

export const SCORE_VALUES = ["pass", "partial", "fail"] as const;
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const CATEGORY_SCALE_TYPES = ["categorical", "checklist", "binary"] as const;
export const EVALUATION_TYPES = ["analytic", "holistic"] as const;

export const CategoryExampleSchema = z
  .strictObject({
    excerpt: z.string().min(1).describe("Example content from a document."),
    reasoning: z
      .string()
      .min(1)
      .describe("Why this content gets this score (shown to the judge, chain-of-thought)."),
  })
  .describe("A few-shot example for one score level.");

export const ScaleOptionSchema = z
  .strictObject({
    value: z
      .enum(SCORE_VALUES, { error: "an option value is pass, partial or fail" })
      .describe("The score this option stands for: pass, partial or fail."),
    label: z.string().optional().describe("Human-readable label; defaults to the value."),
    criteria: z
      .array(z.string())
      .optional()
      .describe("What a document must show to get this score."),
  })
  .describe("One level of a categorical or binary scale.");

export const ChecklistThresholdSchema = z
  .strictObject({
    required: z
      .union([z.literal("all"), z.int().min(0)], {
        error: 'passing_threshold.required is "all" or a whole number',
      })
      .optional()
      .describe('"all" (default) or how many required items must be present.'),
    optional: z
      .int()
      .min(0)
      .optional()
      .describe("How many optional items must be present (default 0)."),
  })
  .describe("When a checklist category passes.");

export const CategoryScaleSchema = z
  .strictObject({
    type: z
      .enum(CATEGORY_SCALE_TYPES, {
        error: "a category scale type is categorical, checklist or binary",
      })
      .describe("categorical (default), checklist or binary."),
    options: z
      .array(ScaleOptionSchema)
      .optional()
      .describe("The levels of a categorical or binary scale."),
    required_items: z
      .array(z.string().min(1))
      .optional()
      .describe("Checklist: items a document must contain."),
    optional_items: z
      .array(z.string().min(1))
      .optional()
      .describe("Checklist: items that add value."),
    passing_threshold: ChecklistThresholdSchema.optional(),
  })
  .describe(
    "How a category is scored. Default: categorical pass / partial / fail (also for a categorical scale with no options).",
  );

export const CategorySchema = z
  .strictObject({
    id: nameString.describe(
      "Unique id of the category within the rubric; findings and reports name it.",
    ),
    name: nameString.optional().describe("Human-readable name; defaults to the id."),
    // Go writes description always (no omitempty), "" when unset: that loads too.
    description: z
      .string()
      .optional()
      .describe("What this category measures (shown to the judge)."),
    weight: weightSchema.optional().describe("Relative importance (default 1)."),
    required: z
      .boolean()
      .optional()
      .describe("Must pass for the review to pass under min_categories_passing: all_required."),
    scale: CategoryScaleSchema.optional(),
    evaluation_prompt: z
      .string()
      .min(1)
      .optional()
      .describe("Extra instructions for the judge about this category."),
    examples: z
      .strictObject({
        pass: CategoryExampleSchema.optional(),
        partial: CategoryExampleSchema.optional(),
        fail: CategoryExampleSchema.optional(),
      })
      .optional()
      .describe("One few-shot example per level."),
  })
  .describe("One evaluation dimension of a category rubric.");

const findingLimit = z
  .int()
  .min(-1, { error: "a finding limit is -1 (unlimited) or a whole number" });

const PassCriteriaObjectSchema = z
  .strictObject({
    min_categories_passing: z
      .union([z.enum(["all", "all_required"]), z.int().min(0)], {
        error: "min_categories_passing is all, all_required or a whole number",
      })
      .optional()
      .describe(
        "all: every category must pass (a partial fails it); all_required (default): every " +
          "required category must pass; N: at least N categories pass.",
      ),
    max_findings: z
      .strictObject({
        critical: findingLimit.optional().describe("Default 0."),
        high: findingLimit.optional().describe("Default 0."),
        medium: findingLimit
          .optional()
          .describe(
            "Default -1 (unlimited). More than this makes the decision conditional, not passed.",
          ),
        low: findingLimit
          .optional()
          .describe("Recorded for the wire format; the decision rules never limit low findings."),
      })
      .optional()
      .describe("Most findings allowed per severity; -1 means unlimited."),
  })
  .describe("When a review passes.");

export const PassCriteriaSchema = z
  .union(
    [
      z
        .literal("strict")
        .describe(
          "The Go package's StrictPassCriteria: every category must pass, no critical or high finding, at most 3 medium.",
        ),
      PassCriteriaObjectSchema,
    ],
    {
      error:
        "pass_criteria is strict, or { min_categories_passing, max_findings } (see the README's category reviews)",
    },
  )
  .describe("When a review passes: strict, or min_categories_passing and max_findings.");

/** The category-rubric fields of a structured rubric. */
export const categoryRubricFields = {
  id: z
    .string()
    .min(1)
    .optional()
    .describe("Category rubric: its id (default: the rubrics: key, or the eval name)."),
  name: nameString.optional().describe("Category rubric: its human-readable name."),
  version: z.union([z.string(), z.number()]).optional().describe("Category rubric: its version."),
  review_type: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Category rubric: the kind of review (prd, arb, security...), written to the report. Default: the rubric id.",
    ),
  evaluation_type: z
    .enum(EVALUATION_TYPES, { error: "evaluation_type is analytic or holistic" })
    .optional()
    .describe(
      "analytic (default): one judge call per category; holistic: one call for all categories.",
    ),
  pass_criteria: PassCriteriaSchema.optional(),
  judge_prompt: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Category rubric: extra review instructions; {content} and {categories} name the document and the categories.",
    ),
  metadata: z
    .strictObject({
      created_at: z.string().optional(),
      author: z.string().optional(),
      based_on: z.array(z.string()).optional(),
    })
    .optional()
    .describe("Category rubric: who wrote it and what it is based on."),
  categories: z
    .array(CategorySchema)
    .min(1, { error: "a category rubric needs at least one category" })
    .max(
      LIMITS.categories,
      atMost(LIMITS.categories, "a category rubric has at most {n} categories"),
    )
    .optional()
    .describe("A category rubric: pass / partial / fail per category, findings and a decision."),
};

export const DocumentSchema = z
  .union(
    [
      z.string().min(1).describe("The document text, inline."),
      z
        .strictObject({
          file: z.string().min(1).optional().describe("A file path, relative to the suite file."),
          text: z.string().min(1).optional().describe("The document text, inline."),
          id: z.string().optional().describe("The document's identifier (e.g. a PRD number)."),
          title: z.string().optional().describe("The document's title."),
          version: z.string().optional().describe("The document's version."),
        })
        .describe("A document: file or text, with optional id, title and version."),
    ],
    { error: "a document is a string, or { file } / { text } with optional id, title and version" },
  )
  .describe("The document a category rubric reviews (instead of response).");

export type CategoryInput = z.output<typeof CategorySchema>;
export type PassCriteriaInput = z.output<typeof PassCriteriaObjectSchema>;
export type DocumentInput = z.output<typeof DocumentSchema>;
