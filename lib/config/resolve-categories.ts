import type { CategoryInput, DocumentInput, PassCriteriaInput } from "./category-schema";
import {
  DEFAULT_CATEGORICAL_OPTIONS,
  DEFAULT_PASS_CRITERIA,
  type CategoryScale,
  type DocumentConfig,
  type ReviewCategory,
  type RubricSetConfig,
  type ScaleOption,
} from "./category-types";

// A category rubric from its YAML input to the resolved RubricSet, defaults
// applied: Go's DefaultPassCriteria field by field, weight 1, analytic, and a
// pass / partial / fail scale for a category that names none.

/** The YAML fields of a category rubric (a structured rubric that has categories). */
export interface CategoryRubricInput {
  id?: string;
  name?: string;
  version?: string | number;
  description?: string;
  review_type?: string;
  evaluation_type?: "analytic" | "holistic";
  pass_criteria?: "strict" | PassCriteriaInput;
  judge_prompt?: string;
  metadata?: { created_at?: string; author?: string; based_on?: string[] };
  categories?: CategoryInput[];
}

/** `pass_criteria: strict`: the Go package's StrictPassCriteria (all categories pass, max 3 medium findings), spelled out. */
const STRICT_PASS_CRITERIA: PassCriteriaInput = {
  min_categories_passing: "all",
  max_findings: { critical: 0, high: 0, medium: 3, low: -1 },
};

/** A rubric's pass_criteria in its long form (the shorthand strict spelled out). */
export function passCriteriaInput(rubric: CategoryRubricInput): PassCriteriaInput | undefined {
  return rubric.pass_criteria === "strict" ? STRICT_PASS_CRITERIA : rubric.pass_criteria;
}

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

function toScale(scale: CategoryInput["scale"]): CategoryScale {
  if (!scale)
    return {
      type: "categorical",
      options: DEFAULT_CATEGORICAL_OPTIONS.map((o) => ({ ...o })),
      requiredItems: [],
      optionalItems: [],
    };
  // Go omits an empty options list: a categorical scale without options is the default pass / partial / fail.
  if (scale.type === "categorical" && !scale.options?.length) return toScale(undefined);
  const options: ScaleOption[] = (scale.options ?? []).map((o) => ({
    value: o.value,
    label: o.label ?? label(o.value),
    criteria: o.criteria ?? [],
  }));
  const binaryDefault: ScaleOption[] = [
    { value: "pass", label: "Pass", criteria: [] },
    { value: "fail", label: "Fail", criteria: [] },
  ];
  return {
    type: scale.type,
    options: scale.type === "binary" && options.length === 0 ? binaryDefault : options,
    requiredItems: scale.required_items ?? [],
    optionalItems: scale.optional_items ?? [],
    ...(scale.type === "checklist"
      ? {
          passingThreshold: {
            required: scale.passing_threshold?.required ?? "all",
            optional: scale.passing_threshold?.optional ?? 0,
          },
        }
      : {}),
  };
}

function toCategory(input: CategoryInput): ReviewCategory {
  return {
    id: input.id,
    name: input.name ?? input.id,
    description: input.description ?? "",
    weight: input.weight ?? 1,
    required: input.required ?? false,
    scale: toScale(input.scale),
    ...(input.evaluation_prompt !== undefined ? { evaluationPrompt: input.evaluation_prompt } : {}),
    examples: { ...input.examples },
  };
}

export function resolveCategoryRubric(input: {
  rubric: CategoryRubricInput;
  defaultId: string;
}): RubricSetConfig {
  const { rubric, defaultId } = input;
  const id = rubric.id ?? defaultId;
  const criteria = passCriteriaInput(rubric);
  const limits = criteria?.max_findings;
  const defaults = DEFAULT_PASS_CRITERIA.maxFindings;
  const meta = rubric.metadata;
  return {
    id,
    name: rubric.name ?? id,
    version: rubric.version === undefined ? "1.0.0" : String(rubric.version),
    ...(rubric.description !== undefined ? { description: rubric.description } : {}),
    reviewType: rubric.review_type ?? id,
    evaluationType: rubric.evaluation_type ?? "analytic",
    passCriteria: {
      minCategoriesPassing:
        criteria?.min_categories_passing ?? DEFAULT_PASS_CRITERIA.minCategoriesPassing,
      maxFindings: {
        critical: limits?.critical ?? defaults.critical,
        high: limits?.high ?? defaults.high,
        medium: limits?.medium ?? defaults.medium,
        // Go writes low with omitempty: absent from a max_findings that is given means 0, which never matters.
        ...(limits?.low !== undefined ? { low: limits.low } : limits ? {} : { low: defaults.low }),
      },
    },
    categories: (rubric.categories ?? []).map(toCategory),
    ...(rubric.judge_prompt !== undefined ? { judgePrompt: rubric.judge_prompt } : {}),
    ...(meta
      ? {
          metadata: {
            ...(meta.created_at ? { createdAt: meta.created_at } : {}),
            ...(meta.author ? { author: meta.author } : {}),
            ...(meta.based_on ? { basedOn: meta.based_on } : {}),
          },
        }
      : {}),
  };
}

export function resolveDocument(input: DocumentInput | undefined): DocumentConfig | undefined {
  if (input === undefined) return undefined;
  if (typeof input === "string") return { text: input };
  return { ...input };
}
