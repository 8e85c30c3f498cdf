import type { SuiteConfig } from "../../../config/types";
import { plural } from "../../results/format-score";

// A regrade in the dashboard (Re-grade with…, the editor's flips preview)
// reads no files, so an eval whose candidates are the items of a dataset
// *file* plans no cell there (one deferred cell, no item): its stored results
// are neither "gone from the version" nor "new cells". They are set apart and
// said to be what they are, with the CLI command that reads the file.

export interface UnreadDataset {
  eval: string;
  dataset: string;
  file: string;
}

/** The evals whose candidates come from a dataset file this process did not read, by eval name. */
export function unreadDatasetEvals(suite: SuiteConfig): Map<string, UnreadDataset> {
  const unread = new Map<string, UnreadDataset>();
  for (const evalConfig of suite.evals) {
    const name = evalConfig.candidates?.dataset;
    const dataset = name === undefined ? undefined : suite.datasets?.[name];
    if (evalConfig.response === undefined && dataset?.unread && dataset.file !== undefined)
      unread.set(evalConfig.name, {
        eval: evalConfig.name,
        dataset: dataset.name,
        file: dataset.file,
      });
  }
  return unread;
}

/**
 * "6,667 results of eval "qa" not re-graded here: its candidates are the items of dataset
 * "questions", in the file questions.jsonl, and the dashboard reads no files. …"
 */
export function unreadDatasetNote(input: {
  unread: UnreadDataset;
  results: number;
  runId: string;
}): string {
  const { unread } = input;
  return `${plural(input.results, "result")} of eval "${unread.eval}" not re-graded here: its candidates are the items of dataset "${unread.dataset}", in the file ${unread.file}, and the dashboard reads no files. Re-grade them where the file is: rubric-studio regrade ${input.runId} --config <the suite file>.`;
}
