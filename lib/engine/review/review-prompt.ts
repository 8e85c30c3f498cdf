import type { ReviewCategory, RubricSetConfig } from "../../config/category-types";
import type { JudgeRequest } from "../ports/judge-port";
import {
  candidateShared,
  preamble,
  renderCandidate,
  type JudgeSettings,
  type Reference,
} from "../grade/build-prompt";
import { VERDICT_TOOL_NAME } from "../ports/verdict";

// The judge prompts of a category review, laid out for the prompt cache as
// every rubric is (build-prompt.ts): the instructions and every category first,
// byte-identical for every document and every category; then the document,
// shared by every category that reviews it; then a short turn naming the one
// category to score now (or all of them, for a holistic review).

/** Bump when the wording changes: it is recorded with every call and keys the judge cache. */
export const REVIEW_TEMPLATE_VERSION = "review-v3";

const FINDINGS = [
  "## Findings",
  "Report every issue you find in this category as a finding with a severity:",
  "- critical: blocks approval, must be fixed;",
  "- high: blocks approval, must be fixed;",
  "- medium: should be fixed before approval;",
  "- low: nice to fix;",
  "- info: informational only.",
  "Give each finding a short title, a description, and a concrete recommendation. Quote evidence verbatim from the document. Say who should address it (owner: a role or team) and the effort to fix it (low, medium or high).",
  "A category can pass and still have low or info findings; give an empty list when there is nothing to report.",
].join("\n");

function scaleLines(category: ReviewCategory): string[] {
  const { scale } = category;
  if (scale.type === "checklist") {
    const threshold = scale.passingThreshold ?? { required: "all", optional: 0 };
    const lines = [
      "### Checklist",
      "Required items:",
      ...scale.requiredItems.map((item) => `- ${item}`),
    ];
    if (scale.optionalItems.length > 0)
      lines.push("Optional items:", ...scale.optionalItems.map((item) => `- ${item}`));
    const need =
      threshold.required === "all"
        ? "all required items"
        : `at least ${threshold.required} required items`;
    lines.push(
      `The category passes when the document contains ${need}${threshold.optional > 0 ? ` and at least ${threshold.optional} optional items` : ""}.`,
      "In `checklist`, list under `present` and `missing` every item above, copied exactly.",
    );
    return lines;
  }
  const header =
    scale.type === "binary" ? "### Scale (binary: pass or fail, no partial)" : "### Scale";
  return [
    header,
    ...scale.options.map((option) => {
      const criteria = option.criteria.length > 0 ? `: ${option.criteria.join("; ")}` : "";
      return `- ${option.value} (${option.label})${criteria}`;
    }),
  ];
}

function exampleLines(category: ReviewCategory): string[] {
  const levels = (["pass", "partial", "fail"] as const).filter((level) => category.examples[level]);
  if (levels.length === 0) return [];
  return [
    "### Examples",
    ...levels.flatMap((level) => {
      const example = category.examples[level]!;
      return [
        `Score ${level}:`,
        `Excerpt: ${JSON.stringify(example.excerpt)}`,
        `Reasoning: ${example.reasoning}`,
      ];
    }),
  ];
}

export function categoryText(category: ReviewCategory): string {
  return [
    `## Category: ${category.name} (id: ${category.id})${category.required ? " (required)" : ""}`,
    ...(category.description ? [category.description] : []),
    ...(category.evaluationPrompt ? [category.evaluationPrompt] : []),
    ...scaleLines(category),
    ...exampleLines(category),
  ].join("\n");
}

function instructions(rubric: RubricSetConfig): string[] {
  if (!rubric.judgePrompt) return [];
  // Go's template placeholders name what we put elsewhere in the prompt.
  const text = rubric.judgePrompt
    .replaceAll("{content}", "the document in <candidate_response>")
    .replaceAll("{categories}", "the categories below");
  return ["## Review instructions", text, ""];
}

const task = (what: string) => `${what} The document is the candidate inside <candidate_response>.`;

// One shared prefix for every call of a rubric (each category, or all at
// once): the instructions and every category. The last turn names what to score.
const stableTexts = new WeakMap<RubricSetConfig, string>();

function reviewStablePrompt(rubric: RubricSetConfig): string {
  const known = stableTexts.get(rubric);
  if (known !== undefined) return known;
  const text = [
    preamble(
      task(
        `You review a document (${rubric.reviewType}) against the categories of the rubric "${rubric.name}". The last turn says which category to score, or to score all of them.`,
      ),
    ),
    "",
    "Score a category pass, partial or fail by its scale (a binary category is pass or fail).",
    "",
    ...instructions(rubric),
    ...rubric.categories.flatMap((category) => [categoryText(category), ""]),
    FINDINGS,
  ].join("\n");
  stableTexts.set(rubric, text);
  return text;
}

function reviewRequest<K extends "category" | "category_binary" | "category_holistic">(input: {
  rubric: RubricSetConfig;
  settings: JudgeSettings;
  document: string;
  /** The prompt a generated or live document answered. */
  prompt?: string;
  reference?: Reference;
  task: string;
  verdict: K;
  calls: number;
}): JudgeRequest<K> {
  const { settings } = input;
  return {
    model: settings.model,
    maxTokens: settings.maxTokens,
    sample: settings.sample,
    templateVersion: REVIEW_TEMPLATE_VERSION,
    stablePrompt: reviewStablePrompt(input.rubric),
    candidatePrompt: renderCandidate({
      response: input.document,
      ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
      ...(input.reference ? { reference: input.reference } : {}),
    }),
    taskPrompt: input.task,
    ...(candidateShared(settings, input.calls) ? {} : { candidateShared: false }),
    verdict: input.verdict,
  };
}

export function categoryRequest(input: {
  rubric: RubricSetConfig;
  category: ReviewCategory;
  settings: JudgeSettings;
  document: string;
  prompt?: string;
  reference?: Reference;
}): JudgeRequest<"category" | "category_binary"> {
  const { category } = input;
  const task = `Score the category "${category.name}" (id: ${category.id}) only, now, with its findings, by calling ${VERDICT_TOOL_NAME}.`;
  return reviewRequest({
    ...input,
    task,
    verdict: category.scale.type === "binary" ? "category_binary" : "category",
    calls: input.rubric.categories.length,
  });
}

export function holisticRequest(input: {
  rubric: RubricSetConfig;
  settings: JudgeSettings;
  document: string;
  prompt?: string;
  reference?: Reference;
}): JudgeRequest<"category_holistic"> {
  const task = `Score every category in one pass, now, with one entry per category id, by calling ${VERDICT_TOOL_NAME}.`;
  return {
    ...reviewRequest({ ...input, task, verdict: "category_holistic", calls: 1 }),
    categories: input.rubric.categories.map((category) => category.id),
  };
}

/** The requests one judge sends for a review: one per category, or one for all. */
export function reviewRequests(input: {
  rubric: RubricSetConfig;
  settings: JudgeSettings;
  document: string;
  prompt?: string;
  reference?: Reference;
}): JudgeRequest<"category" | "category_binary" | "category_holistic">[] {
  const { rubric } = input;
  if (rubric.evaluationType === "holistic") return [holisticRequest(input)];
  return rubric.categories.map((category) => categoryRequest({ ...input, category }));
}

/** `eval --explain` lines for a category rubric. */
export function describeCategoryRubric(rubric: RubricSetConfig, source: string): string[] {
  const { minCategoriesPassing, maxFindings } = rubric.passCriteria;
  const limit = (n: number) => (n < 0 ? "unlimited" : String(n));
  return [
    `category rubric "${rubric.name}" (${source}), ${rubric.evaluationType}, pass when ${minCategoriesPassing}; findings allowed: critical ${limit(maxFindings.critical)}, high ${limit(maxFindings.high)}, medium ${limit(maxFindings.medium)}`,
    ...rubric.categories.map(
      (c) =>
        `  - ${c.id}: ${c.name} (${c.scale.type}${c.required ? ", required" : ""}, weight ${c.weight})`,
    ),
  ];
}
