import * as z from "zod";
import { stringify } from "yaml";
import { describeZodError, goList, omitempty, toGoJson } from "./go-json";
import type { CategoryScale, ReviewCategory, RubricSetConfig } from "./category-types";

// The Go package's RubricSet as JSON (spec 004; camelCase field names are a
// wire format) and its translation to and from the YAML language:
// `rubric-studio import rubricset.json` writes a suite, and a loaded category
// rubric is written back as RubricSet JSON by rubricSetToJson.

const Example = z.object({ excerpt: z.string(), reasoning: z.string() });
const ScaleOption = z.object({
  value: z.string(),
  label: z.string(),
  criteria: goList(z.string()),
});
const ChecklistThreshold = z.object({
  required: omitempty(z.string()),
  optional: omitempty(z.int()),
});
const Scale = z.object({
  type: z.enum(["categorical", "checklist", "binary"]),
  options: omitempty(z.array(ScaleOption)),
  requiredItems: omitempty(z.array(z.string())),
  optionalItems: omitempty(z.array(z.string())),
  passingThreshold: omitempty(ChecklistThreshold),
});
const Category = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  weight: omitempty(z.number()),
  required: omitempty(z.boolean()),
  scale: Scale,
  evaluationPrompt: omitempty(z.string()),
  examples: omitempty(
    z.object({ pass: omitempty(Example), partial: omitempty(Example), fail: omitempty(Example) }),
  ),
});
const FindingLimits = z.object({
  critical: z.int(),
  high: z.int(),
  medium: z.int(),
  low: omitempty(z.int()),
});

export const RubricSetJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: omitempty(z.string()),
  evaluationType: omitempty(z.enum(["analytic", "holistic"])),
  passCriteria: z.object({
    minCategoriesPassing: omitempty(z.string()),
    maxFindingsSeverity: omitempty(FindingLimits),
  }),
  categories: goList(Category),
  judgePromptTemplate: omitempty(z.string()),
  metadata: omitempty(
    z.object({
      createdAt: omitempty(z.string()),
      author: omitempty(z.string()),
      basedOn: omitempty(z.array(z.string())),
    }),
  ),
});

export type RubricSetJson = z.infer<typeof RubricSetJsonSchema>;

export type ParseRubricSetResult =
  { ok: true; value: RubricSetJson } | { ok: false; issues: string[] };

export function parseRubricSetJson(text: string): ParseRubricSetResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, issues: [`not valid JSON: ${(error as Error).message}`] };
  }
  const parsed = RubricSetJsonSchema.safeParse(data);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, issues: describeZodError(parsed.error) };
}

const SCORE_VALUES = new Set(["pass", "partial", "fail"]);

/** The YAML form (snake_case) of a RubricSet; problems that YAML cannot express come back as issues. */
export function rubricSetToYamlObject(
  rubric: RubricSetJson,
): { ok: true; value: Record<string, unknown> } | { ok: false; issues: string[] } {
  const issues: string[] = [];
  const min = rubric.passCriteria.minCategoriesPassing;
  let minCategories: string | number | undefined = min;
  if (min !== undefined && min !== "all" && min !== "all_required") {
    if (/^\d+$/.test(min)) minCategories = Number(min);
    else
      issues.push(
        `passCriteria.minCategoriesPassing: "${min}" is not all, all_required or a number`,
      );
  }
  const categories = rubric.categories.map((c, i) => {
    const options = c.scale.options?.map((o, j) => {
      if (!SCORE_VALUES.has(o.value))
        issues.push(
          `categories.${i}.scale.options.${j}.value: "${o.value}" is not pass, partial or fail`,
        );
      return {
        value: o.value,
        label: o.label,
        ...(o.criteria.length > 0 ? { criteria: o.criteria } : {}),
      };
    });
    const threshold = c.scale.passingThreshold;
    let required: string | number | undefined = threshold?.required;
    if (required !== undefined && required !== "all") {
      if (/^\d+$/.test(required)) required = Number(required);
      else
        issues.push(
          `categories.${i}.scale.passingThreshold.required: "${required}" is not all or a number`,
        );
    }
    return {
      id: c.id,
      name: c.name,
      // Go writes description always; "" means none, which the YAML language spells by leaving it out.
      ...(c.description ? { description: c.description } : {}),
      ...(c.weight !== undefined ? { weight: c.weight } : {}),
      ...(c.required ? { required: true } : {}),
      scale: {
        type: c.scale.type,
        ...(options && options.length > 0 ? { options } : {}),
        ...(c.scale.requiredItems?.length ? { required_items: c.scale.requiredItems } : {}),
        ...(c.scale.optionalItems?.length ? { optional_items: c.scale.optionalItems } : {}),
        ...(threshold
          ? {
              passing_threshold: {
                ...(required !== undefined ? { required } : {}),
                ...(threshold.optional !== undefined ? { optional: threshold.optional } : {}),
              },
            }
          : {}),
      },
      ...(c.evaluationPrompt ? { evaluation_prompt: c.evaluationPrompt } : {}),
      ...(c.examples && Object.keys(c.examples).length > 0 ? { examples: c.examples } : {}),
    };
  });
  if (issues.length > 0) return { ok: false, issues };
  const limits = rubric.passCriteria.maxFindingsSeverity;
  const meta = rubric.metadata;
  return {
    ok: true,
    value: {
      id: rubric.id,
      name: rubric.name,
      version: rubric.version,
      ...(rubric.description ? { description: rubric.description } : {}),
      ...(rubric.evaluationType ? { evaluation_type: rubric.evaluationType } : {}),
      pass_criteria: {
        ...(minCategories !== undefined ? { min_categories_passing: minCategories } : {}),
        ...(limits ? { max_findings: limits } : {}),
      },
      ...(rubric.judgePromptTemplate ? { judge_prompt: rubric.judgePromptTemplate } : {}),
      ...(meta
        ? {
            metadata: {
              ...(meta.createdAt ? { created_at: meta.createdAt } : {}),
              ...(meta.author ? { author: meta.author } : {}),
              ...(meta.basedOn ? { based_on: meta.basedOn } : {}),
            },
          }
        : {}),
      categories,
    },
  };
}

/** A suite (YAML text) with the rubric under rubrics: and one review eval of `document`. */
/**
 * `schema` is the `$schema` modeline's target (a path relative to the suite
 * file, which editors resolve offline); without it no modeline is written.
 */
export function rubricSetToSuiteYaml(input: {
  rubric: RubricSetJson;
  document: string;
  source: string;
  schema?: string;
}): { ok: true; text: string } | { ok: false; issues: string[] } {
  const converted = rubricSetToYamlObject(input.rubric);
  if (!converted.ok) return converted;
  const key = input.rubric.id;
  const suite = {
    description: `Imported from ${input.source}`,
    rubrics: { [key]: converted.value },
    evals: [
      {
        name: `review ${input.rubric.name}`,
        document: { file: input.document },
        rubric: { ref: key },
      },
    ],
  };
  const modeline =
    input.schema === undefined ? "" : `# yaml-language-server: $schema=${input.schema}\n`;
  const header = `${modeline}# Imported by rubric-studio import from ${input.source}.\n`;
  return { ok: true, text: header + stringify(suite, { lineWidth: 0 }) };
}

function scaleJson(scale: CategoryScale): RubricSetJson["categories"][number]["scale"] {
  const threshold = scale.passingThreshold;
  return {
    type: scale.type,
    ...(scale.type !== "checklist"
      ? {
          options: scale.options.map((o) => ({
            value: o.value,
            label: o.label,
            criteria: o.criteria,
          })),
        }
      : {}),
    requiredItems: scale.requiredItems,
    optionalItems: scale.optionalItems,
    ...(threshold
      ? { passingThreshold: { required: String(threshold.required), optional: threshold.optional } }
      : {}),
  };
}

function categoryJson(c: ReviewCategory): RubricSetJson["categories"][number] {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    weight: c.weight,
    required: c.required,
    scale: scaleJson(c.scale),
    ...(c.evaluationPrompt !== undefined ? { evaluationPrompt: c.evaluationPrompt } : {}),
    ...(Object.keys(c.examples).length > 0 ? { examples: c.examples } : {}),
  };
}

/** A loaded category rubric as the Go package's RubricSet JSON object (key order and omitempty as Go writes them). */
export function rubricSetToJson(rubric: RubricSetConfig): unknown {
  const { critical, high, medium, low } = rubric.passCriteria.maxFindings;
  const value: RubricSetJson = {
    id: rubric.id,
    name: rubric.name,
    version: rubric.version,
    ...(rubric.description !== undefined ? { description: rubric.description } : {}),
    evaluationType: rubric.evaluationType,
    passCriteria: {
      minCategoriesPassing: String(rubric.passCriteria.minCategoriesPassing),
      maxFindingsSeverity: { critical, high, medium, ...(low !== undefined ? { low } : {}) },
    },
    categories: rubric.categories.map(categoryJson),
    ...(rubric.judgePrompt !== undefined ? { judgePromptTemplate: rubric.judgePrompt } : {}),
    ...(rubric.metadata ? { metadata: rubric.metadata } : {}),
  };
  return toGoJson(RubricSetJsonSchema, value);
}
