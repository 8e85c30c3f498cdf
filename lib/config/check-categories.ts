import { passCriteriaInput, type CategoryRubricInput } from "./resolve-categories";
import type { DataPath } from "./yaml-locator";

// The rules of a category rubric that zod's shape cannot say. It checks what
// the Go package's RubricSet.Validate checks (categories present, ids and
// names) and goes further wherever a review
// would otherwise silently never pass, or silently ignore a setting.

type Report = (path: DataPath, message: string) => void;

/** Category-rubric fields other than `categories`: meaningless on a criteria, tree or free-form rubric. */
export const CATEGORY_ONLY_FIELDS = [
  "id",
  "name",
  "version",
  "review_type",
  "evaluation_type",
  "pass_criteria",
  "judge_prompt",
  "metadata",
] as const;
/** Fields of a criteria rubric that a category rubric does not use. */
const NUMERIC_RUBRIC_FIELDS = [
  "criteria",
  "tree",
  "preset",
  "threshold",
  "strict",
  "require_evidence",
  "aggregation",
  "scale",
] as const;

/** Multi-judge aggregation methods of the Go package: they combine pass / partial / fail votes. */
export const CATEGORY_AGGREGATES = ["majority", "conservative", "optimistic", "unanimous"] as const;

type RubricObject = CategoryRubricInput & Record<string, unknown>;

export function checkCategoryRubric(input: {
  rubric: RubricObject;
  path: DataPath;
  error: Report;
  warn: Report;
}): void {
  const { rubric, path, error, warn } = input;
  if (rubric.categories === undefined) {
    for (const field of CATEGORY_ONLY_FIELDS) {
      if (rubric[field] !== undefined)
        error(
          [...path, field],
          `${field} belongs to a category rubric; add categories: or remove it`,
        );
    }
    return;
  }
  for (const field of NUMERIC_RUBRIC_FIELDS) {
    if (rubric[field] !== undefined) {
      error(
        [...path, field],
        `a category rubric decides by pass_criteria and findings; it takes no ${field} (that belongs to a criteria, tree or preset rubric)`,
      );
    }
  }
  const categories = rubric.categories;
  const seen = new Set<string>();
  categories.forEach((category, i) => {
    const cpath = [...path, "categories", i];
    if (seen.has(category.id))
      error(
        [...cpath, "id"],
        `duplicate category id "${category.id}": findings and results are keyed by it`,
      );
    seen.add(category.id);
    const scale = category.scale;
    if (!scale) return;
    const spath = [...cpath, "scale"];
    const values = (scale.options ?? []).map((o) => o.value);
    if (new Set(values).size !== values.length)
      error([...spath, "options"], "each score value may appear once among the options");
    if (scale.type === "binary" && values.includes("partial"))
      error([...spath, "options"], "a binary scale is pass or fail: it has no partial option");
    if (scale.type === "binary" && category.examples?.partial)
      error(
        [...cpath, "examples", "partial"],
        "a binary scale has no partial level, so a partial example would mislead the judge",
      );
    if (scale.type !== "checklist") {
      for (const field of ["required_items", "optional_items", "passing_threshold"] as const) {
        if (scale[field] !== undefined)
          error([...spath, field], `${field} belongs to a checklist scale (type: checklist)`);
      }
      return;
    }
    if (scale.options !== undefined)
      error(
        [...spath, "options"],
        "a checklist scale is scored from its items; it takes no options",
      );
    const required = scale.required_items ?? [];
    const optional = scale.optional_items ?? [];
    if (required.length + optional.length === 0)
      error(spath, "a checklist scale needs required_items or optional_items");
    const threshold = scale.passing_threshold;
    if (typeof threshold?.required === "number" && threshold.required > required.length) {
      error(
        [...spath, "passing_threshold", "required"],
        `passing_threshold.required is ${threshold.required} but the checklist has only ${required.length} required items: it could never pass`,
      );
    }
    if (threshold?.optional !== undefined && threshold.optional > optional.length) {
      error(
        [...spath, "passing_threshold", "optional"],
        `passing_threshold.optional is ${threshold.optional} but the checklist has only ${optional.length} optional items: it could never pass`,
      );
    }
  });

  const criteria = passCriteriaInput(rubric);
  const min = criteria?.min_categories_passing;
  if (typeof min === "number" && min > categories.length) {
    error(
      [...path, "pass_criteria", "min_categories_passing"],
      `min_categories_passing is ${min} but the rubric has only ${categories.length} categories: no review could pass`,
    );
  }
  if ((min === undefined || min === "all_required") && !categories.some((c) => c.required)) {
    warn(
      [...path, "pass_criteria"],
      "no category is required, so min_categories_passing: all_required (the default) " +
        "passes whatever the categories score; mark categories required: true or use all",
    );
  }
  const low = rubric.pass_criteria === "strict" ? undefined : criteria?.max_findings?.low;
  if (low !== undefined && low >= 0) {
    warn(
      [...path, "pass_criteria", "max_findings", "low"],
      "the decision rules never limit low findings (any low finding makes a review " +
        "conditional); this limit is kept only for the report",
    );
  }
}

/** Eval-level rules: a document, and an aggregate that fits the rubric form. */
export function checkReviewEval(input: {
  evalInput: { response?: string; document?: unknown; threshold?: number };
  isCategoryRubric: boolean;
  aggregate: string | undefined;
  hasPanel: boolean;
  path: DataPath;
  error: Report;
}): void {
  const { evalInput, isCategoryRubric, aggregate, hasPanel, path, error } = input;
  if (evalInput.document !== undefined && evalInput.response !== undefined) {
    error(
      [...path, "document"],
      "give an eval either response or document, not both: the document is the candidate",
    );
  }
  const document = evalInput.document;
  if (typeof document === "object" && document !== null) {
    const { file, text } = document as { file?: string; text?: string };
    if ((file === undefined) === (text === undefined))
      error([...path, "document"], "a document needs exactly one of file or text");
  }
  if (isCategoryRubric && evalInput.threshold !== undefined) {
    error(
      [...path, "threshold"],
      "a category rubric decides by its pass_criteria and findings, not by a threshold",
    );
  }
  if (aggregate === undefined) return;
  const categoryMethod =
    (CATEGORY_AGGREGATES as readonly string[]).includes(aggregate) && aggregate !== "majority";
  if (isCategoryRubric && (aggregate === "mean" || aggregate === "median")) {
    error(
      [...path, "judge", "aggregate"],
      `a category rubric combines pass / partial / fail votes: aggregate is ${CATEGORY_AGGREGATES.join(", ")}, not ${aggregate}`,
    );
  }
  if (!isCategoryRubric && categoryMethod) {
    error(
      [...path, "judge", "aggregate"],
      `aggregate: ${aggregate} combines category votes; it needs a category rubric (for scores use mean, median or majority)`,
    );
  } else if (!isCategoryRubric && !hasPanel && aggregate === "majority") {
    error([...path, "judge", "aggregate"], "aggregate applies to a panel; add panel: [models]");
  }
}
