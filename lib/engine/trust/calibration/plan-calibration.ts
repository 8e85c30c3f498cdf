import type { DatasetItem } from "../../../config/dataset-schema";
import type { Criterion, EvalConfig, Rubric, SuiteConfig } from "../../../config/types";
import type { ReviewCategory, ScoreValue } from "../../../config/category-types";
import type { CalibrationScale } from "../../results/trust";
import { labellerOf } from "./labellers";

// What `calibrate` grades: every calibration anchor of every criterion, every
// per-level example of every category, and every annotated item of an eval's
// dataset, each as a probe with its label (a person's, or an llm's or a
// rule's, which labellers.ts keeps apart). Each probe
// becomes one eval of a generated suite, so the judge, scheduling, budget and
// scoring are exactly those of a normal run (no second grading path).
// An anchor is graded with itself left out of the prompt's calibration
// examples: grading it with its own label in view would measure nothing.

export interface Probe {
  /** The generated eval's name: unique. */
  name: string;
  eval: string;
  /** Criterion name, category id, or "(rubric)" for a free-form rubric. */
  item: string;
  source: "anchor" | "example" | "dataset";
  id: string;
  /** The label in 0..1 (pass 1, partial 0.5, fail 0 for categories). */
  label: number;
  scale: CalibrationScale;
  likert?: { min: number; max: number };
  threshold: number;
  annotator?: string;
  /** The annotation's annotator_type when it is not a person's (labellers.ts). */
  labelledBy?: string;
  /** The graded text: the anchor's response, the category example's excerpt, the dataset item's expected output. */
  text: string;
}

const POINTS: Record<ScoreValue, number> = { pass: 1, partial: 0.5, fail: 0 };

function scaleOf(rubric: Rubric): Pick<Probe, "scale" | "likert"> {
  if (rubric.kind === "categories") return { scale: "categorical" };
  const s = rubric.scale;
  return s.kind === "likert"
    ? { scale: "likert", likert: { min: s.min, max: s.max } }
    : { scale: s.kind };
}

function labelOf(annotation: DatasetItem["annotations"][number]): number | undefined {
  if (annotation.score !== undefined) return annotation.score;
  const label = annotation.label?.toLowerCase();
  return label === "pass" || label === "partial" || label === "fail" ? POINTS[label] : undefined;
}

/** `select` keeps only some probes (the editor's "Check anchors" grades one criterion's anchors). */
export function planCalibration(
  suite: SuiteConfig,
  filter?: RegExp,
  select?: (probe: Probe) => boolean,
): { suite: SuiteConfig; probes: Probe[] } {
  const evals: EvalConfig[] = [];
  const probes: Probe[] = [];
  const add = (
    source: EvalConfig,
    probe: Omit<Probe, "name" | "text">,
    /** Made only for a probe that is kept: an anchor's rubric copies its criterion's other anchors, and Check anchors keeps a few of many. */
    rubric: Rubric | (() => Rubric),
    candidate: { prompt?: string; response: string },
  ) => {
    const name = `${probe.eval} › ${probe.item} › ${probe.source} ${probe.id}`;
    const full: Probe = { ...probe, name, text: candidate.response };
    if (select && !select(full)) return;
    probes.push(full);
    const { matrix: _m, document: _d, dataset: _s, ...rest } = source;
    evals.push({
      ...rest,
      name,
      rubric: typeof rubric === "function" ? rubric() : rubric,
      response: candidate.response,
      ...(candidate.prompt !== undefined ? { prompt: candidate.prompt } : { prompt: undefined }),
    });
  };

  for (const e of suite.evals) {
    if (filter && !filter.test(e.name)) continue;
    const rubric = e.rubric;
    const { scale, likert } = scaleOf(rubric);
    const base = { eval: e.name, scale, ...(likert ? { likert } : {}) };
    const criterionRubric = (criterion: Criterion): Rubric =>
      rubric.kind === "criteria"
        ? { ...rubric, criteria: [{ ...criterion, when: undefined, required: false }] }
        : rubric;
    const categoryRubric = (category: ReviewCategory): Rubric =>
      rubric.kind === "categories"
        ? {
            ...rubric,
            rubricSet: { ...rubric.rubricSet, evaluationType: "analytic", categories: [category] },
          }
        : rubric;

    if (rubric.kind === "criteria") {
      for (const criterion of rubric.criteria) {
        criterion.examples.forEach((anchor, i) => {
          const leaveOneOut = () => ({
            ...criterion,
            examples: criterion.examples.filter((_, j) => j !== i),
          });
          const probe = {
            ...base,
            item: criterion.name,
            source: "anchor" as const,
            id: String(i + 1),
            label: anchor.score,
            threshold: criterion.threshold ?? rubric.threshold,
          };
          add(e, probe, () => criterionRubric(leaveOneOut()), {
            ...(e.prompt !== undefined ? { prompt: e.prompt } : {}),
            response: anchor.response,
          });
        });
      }
    }
    if (rubric.kind === "categories") {
      for (const category of rubric.rubricSet.categories) {
        for (const level of ["pass", "partial", "fail"] as const) {
          const example = category.examples[level];
          if (!example) continue;
          const { [level]: _left, ...others } = category.examples;
          const probe = {
            ...base,
            item: category.id,
            source: "example" as const,
            id: level,
            label: POINTS[level],
            threshold: 1,
          };
          add(e, probe, categoryRubric({ ...category, examples: others }), {
            response: example.excerpt,
          });
        }
      }
    }
    const dataset = e.dataset ? suite.datasets?.[e.dataset] : undefined;
    for (const item of dataset?.items ?? []) {
      if (item.expectedOutput === undefined) continue;
      for (const annotation of item.annotations) {
        const label = labelOf(annotation);
        if (label === undefined) continue;
        const candidate = {
          ...(item.input !== undefined ? { prompt: item.input } : {}),
          response: item.expectedOutput,
        };
        const labelledBy = labellerOf(annotation.annotatorType);
        const common = {
          ...base,
          source: "dataset" as const,
          id: item.id,
          label,
          ...(labelledBy ? { labelledBy } : {}),
          ...(annotation.annotatorType || annotation.annotatorId
            ? {
                annotator: [annotation.annotatorType, annotation.annotatorId]
                  .filter(Boolean)
                  .join(":"),
              }
            : {}),
        };
        if (rubric.kind === "criteria") {
          const criterion = rubric.criteria.find((c) => c.name === annotation.name);
          if (criterion)
            add(
              e,
              {
                ...common,
                item: criterion.name,
                threshold: criterion.threshold ?? rubric.threshold,
              },
              criterionRubric(criterion),
              candidate,
            );
        } else if (rubric.kind === "categories") {
          const category = rubric.rubricSet.categories.find((c) => c.id === annotation.name);
          if (category)
            add(
              e,
              { ...common, item: category.id, threshold: 1 },
              categoryRubric(category),
              candidate,
            );
        } else if (
          rubric.kind === "freeform" &&
          (annotation.name === "score" || annotation.name === e.name)
        ) {
          add(e, { ...common, item: "(rubric)", threshold: rubric.threshold }, rubric, candidate);
        }
      }
    }
  }
  return { suite: { ...suite, evals }, probes };
}
