import { DECISION_ITEM } from "./needs-person";

// "Add to dataset": a person's label as an item of a ReferenceDataset, the Go
// package's JSON (ReferenceData with one human Annotation), so the labels a
// team gives in the review queue can be exported, and read back by
// `datasets: { file: }` and `rubric-studio calibrate`: the labelled text is
// the item's expected_output (the candidate calibrate grades), the answer its
// annotation, named as calibrate names it (a criterion, a category id, score
// for a whole free-form rubric).

export interface LabelForDataset {
  id: string;
  runId: string | null;
  resultKey: string;
  evalName: string;
  criterion: string;
  reviewer: string;
  candidate: string;
  scale: string;
  value: string;
  score: number | null;
  note: string | null;
  suiteVersionId: string;
  createdAt: Date;
}

export interface ReferenceAnnotation {
  name: string;
  score?: number;
  label?: string;
  explanation?: string;
  annotator_id: string;
  annotator_type: "human";
}

export interface ReferenceItem {
  id: string;
  expected_output: string;
  annotations: ReferenceAnnotation[];
  source: string;
  tags: string[];
  metadata: Record<string, string>;
}

export interface ReferenceDataset {
  id: string;
  name: string;
  description?: string;
  version?: string;
  items: ReferenceItem[];
}

/** The annotation's name: a criterion or category as the rubric names it; "score" for a whole free-form rubric, "decision" for a review's. */
const annotationName = (criterion: string) =>
  criterion === "(rubric)" ? "score" : criterion === DECISION_ITEM ? "decision" : criterion;

/** Answers that are words (a category, a decision, a pair's winner, pass / fail) are also the annotation's label. */
const WORDS = new Set(["category", "decision", "pairwise", "boolean"]);

export function referenceItemOf(label: LabelForDataset): ReferenceItem {
  return {
    id: `${label.evalName}/${annotationName(label.criterion)}/${label.id.slice(0, 8)}`,
    expected_output: label.candidate,
    annotations: [
      {
        name: annotationName(label.criterion),
        ...(label.score !== null ? { score: label.score } : {}),
        ...(WORDS.has(label.scale) ? { label: label.value } : {}),
        ...(label.note ? { explanation: label.note } : {}),
        annotator_id: label.reviewer,
        annotator_type: "human",
      },
    ],
    source: "rubric-studio review queue",
    tags: [label.evalName],
    metadata: {
      eval: label.evalName,
      scale: label.scale,
      answer: label.value,
      result_key: label.resultKey,
      ...(label.runId ? { run_id: label.runId } : {}),
      suite_version_id: label.suiteVersionId,
      labelled_at: label.createdAt.toISOString(),
    },
  };
}
