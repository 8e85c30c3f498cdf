import { jsonPathText } from "./go-json";
import type { DataPath } from "./yaml-locator";

// Where, in a RubricSet JSON file, a problem of the suite that `import` made
// from it lies: the suite's path (rubrics.<id>.pass_criteria.max_findings...)
// as the JSON path of the Go field it came from (passCriteria.maxFindingsSeverity...),
// so that errors point into the file the person has, not into YAML text they never saw.

/** The YAML language's names of the RubricSet fields whose JSON names differ. */
const JSON_NAME: Record<string, string> = {
  pass_criteria: "passCriteria",
  min_categories_passing: "minCategoriesPassing",
  max_findings: "maxFindingsSeverity",
  evaluation_type: "evaluationType",
  judge_prompt: "judgePromptTemplate",
  required_items: "requiredItems",
  optional_items: "optionalItems",
  passing_threshold: "passingThreshold",
  evaluation_prompt: "evaluationPrompt",
  created_at: "createdAt",
  based_on: "basedOn",
};

/**
 * The JSON path, in the RubricSet file, of an issue at `path` of the suite
 * import wrote (the rubric under rubrics.<key>, one eval named after it);
 * undefined for what the file does not hold (the eval's document).
 */
export function rubricSetPathOf(path: DataPath, key: string): string | undefined {
  const [top, second, ...rest] = path;
  if (top === "rubrics" && second === key)
    return jsonPathText(
      rest.map((part) => (typeof part === "string" ? (JSON_NAME[part] ?? part) : part)),
    );
  // The eval is named after the rubric set's name.
  if (top === "evals" && rest[0] === "name") return "name";
  return undefined;
}
