import type { EvalConfig, SuiteConfig } from "../../config/types";
import type { CellCoordinates } from "../results/report";
import type { DatasetItem } from "../../config/dataset-schema";
import { planCellComparison } from "./plan-cell-comparison";
import type { PlannedCell } from "../grade/planned-cell";
import {
  callsPerJudgeAtMost,
  cellName,
  planCell,
  type EvalPlanning,
  type PlanOptions,
} from "./plan-cell";

export { cellName, type PlanOptions } from "./plan-cell";

// Expands a suite into cells (eval × matrix coordinates) and, per cell, the
// judges (panel models × jurors) and the number of judge calls it will make.
// Planning never calls a provider; `eval --explain` and the runner share it.
// planCells produces the cells one at a time, in order, reading a streamed
// dataset (a JSONL or CSV file, DatasetConfig.stream) item by item as it goes,
// so a million-cell plan is never held; planTotals counts them by arithmetic;
// planSuite is the array, for small callers whose datasets are held.

function matrixCellsOf(evalConfig: EvalConfig): (CellCoordinates | null)[] {
  const agents = evalConfig.matrix?.agents;
  const models = evalConfig.matrix?.models;
  const prompts = evalConfig.matrix?.prompts;
  if (!agents && !models && !prompts) return [null];
  const agentAxis: (string | undefined)[] = agents ?? [undefined];
  const modelAxis: (string | undefined)[] = models ?? [undefined];
  const promptAxis: (string | undefined)[] = prompts ?? [undefined];
  return agentAxis.flatMap((agent) =>
    modelAxis.flatMap((model) =>
      promptAxis.map((prompt, i) => ({
        ...(agent !== undefined ? { agent } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(prompt !== undefined ? { prompt, promptIndex: i + 1 } : {}),
      })),
    ),
  );
}

type ItemSource =
  | { items: DatasetItem[] }
  | { stream: { count: number; read: () => AsyncIterable<DatasetItem> } }
  | { unread: string };

/**
 * The dataset items an eval grades, when it takes its candidates from a
 * dataset. A fixed response wins over them (calibrate's probes set one).
 */
function candidateItemsOf(evalConfig: EvalConfig, suite: SuiteConfig): ItemSource | undefined {
  const name = evalConfig.candidates?.dataset;
  if (name === undefined || evalConfig.response !== undefined) return undefined;
  const dataset = suite.datasets?.[name];
  if (!dataset) return { unread: `dataset "${name}" is not defined` };
  if (dataset.unread)
    return {
      unread: `the items of dataset "${name}" are in ${dataset.file}, which was not read here (a run from the dashboard or a queue worker reads no files; use inline items:)`,
    };
  return dataset.stream ? { stream: dataset.stream } : { items: dataset.items };
}

function unreadCell(evalConfig: EvalConfig, reason: string): PlannedCell {
  return {
    id: evalConfig.name,
    name: evalConfig.name,
    eval: evalConfig,
    cell: null,
    deferReason: reason,
    judges: [],
    callsPerJudge: 0,
    judgeCalls: 0,
  };
}

const planningOf = (evalConfig: EvalConfig, options: PlanOptions): EvalPlanning => ({
  evalConfig,
  options,
  perJudgeByResponse: new Map(),
  rememberedChars: 0,
});

/** The cells of one eval whose items are held (or that has none), in order: every matrix cell once per item, the item first. */
function* heldCells(evalConfig: EvalConfig, options: PlanOptions): Generator<PlannedCell> {
  const source = candidateItemsOf(evalConfig, options.suite);
  if (source && "unread" in source) {
    yield unreadCell(evalConfig, source.unread);
    return;
  }
  if (source && "stream" in source)
    throw new Error(
      `eval "${evalConfig.name}" grades a streamed dataset: plan it with planCells, not planSuite`,
    );
  const planning = planningOf(evalConfig, options);
  const matrix = matrixCellsOf(evalConfig);
  let index = 0;
  if (!source) {
    for (const cell of matrix) yield planCell(planning, cell, undefined, ++index);
    return;
  }
  for (const item of source.items)
    for (const cell of matrix) yield planCell(planning, { item: item.id, ...cell }, item, ++index);
}

/** The same for any eval: a streamed dataset's items are read one at a time. */
async function* evalCells(
  evalConfig: EvalConfig,
  options: PlanOptions,
): AsyncGenerator<PlannedCell> {
  const source = candidateItemsOf(evalConfig, options.suite);
  if (!source || !("stream" in source)) {
    yield* heldCells(evalConfig, options);
    return;
  }
  const planning = planningOf(evalConfig, options);
  const matrix = matrixCellsOf(evalConfig);
  let index = 0;
  for await (const item of source.stream.read())
    for (const cell of matrix) yield planCell(planning, { item: item.id, ...cell }, item, ++index);
}

/** The eval whose cells an eval compares (`compare: { eval }`), if it is a comparison of cells. */
function comparedSource(evalConfig: EvalConfig, suite: SuiteConfig): EvalConfig | undefined {
  const cellsOfComparison =
    evalConfig.rubric.kind === "pairwise" ? evalConfig.rubric.comparison.cells : undefined;
  // The loader checked that the source eval exists.
  return cellsOfComparison && suite.evals.find((e) => e.name === cellsOfComparison.eval)!;
}

/**
 * The comparison of cells an eval's cells are, against its source eval's cells, held whole (each
 * pair needs both sides). The source is planned even when --filter leaves it out.
 */
function comparing(
  evalConfig: EvalConfig,
  options: PlanOptions,
  sourceCells: (source: EvalConfig) => PlannedCell[],
): ((cell: PlannedCell) => PlannedCell) | undefined {
  const source = comparedSource(evalConfig, options.suite);
  if (!source) return undefined;
  const sourcePlanned = !options.filter || options.filter.test(source.name);
  const cells = sourceCells(source);
  return (cell) => planCellComparison({ cell, sourceCells: cells, sourcePlanned });
}

const held = (options: PlanOptions) => (source: EvalConfig) => [...heldCells(source, options)];

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const planned = (options: PlanOptions) =>
  options.suite.evals.filter((e) => !options.filter || options.filter.test(e.name));

/**
 * Every cell of the suite, in order, produced on demand. Its size is what
 * `lib/config/plan-size.ts` counts, which the loader (and the CLI, once it has
 * read dataset files) holds under the limits.
 */
export async function* planCells(options: PlanOptions): AsyncGenerator<PlannedCell> {
  for (const evalConfig of planned(options)) {
    const source = comparedSource(evalConfig, options.suite);
    // A source whose dataset is streamed is read into cells first: a comparison holds both sides.
    const sourceCells: PlannedCell[] = [];
    if (source) for await (const cell of evalCells(source, options)) sourceCells.push(cell);
    const compare = comparing(evalConfig, options, () => sourceCells);
    for await (const cell of evalCells(evalConfig, options)) yield compare ? compare(cell) : cell;
  }
}

/**
 * The name of every cell the suite will have that is known before its datasets are read: every
 * eval's matrix cells, once per item of a dataset held in the suite. An eval that streams its
 * dataset's items from a file is left out (its item ids come as it is read). For the pretty
 * report's name column, which is written as results come.
 */
export function* knownCellNames(suite: SuiteConfig): Generator<string> {
  for (const evalConfig of suite.evals) {
    const source = candidateItemsOf(evalConfig, suite);
    if (source && "stream" in source) continue;
    const matrix = source && "unread" in source ? [null] : matrixCellsOf(evalConfig);
    const items = source && "items" in source ? source.items : [undefined];
    for (const item of items)
      for (const cell of matrix)
        yield cellName(evalConfig.name, item ? { item: item.id, ...cell } : cell);
  }
}

/** Every cell of the suite as an array, for small callers; a suite with a streamed dataset is planCells's. */
export function planSuite(options: PlanOptions): PlannedCell[] {
  const cells: PlannedCell[] = [];
  for (const evalConfig of planned(options)) {
    const compare = comparing(evalConfig, options, held(options));
    for (const cell of heldCells(evalConfig, options)) cells.push(compare ? compare(cell) : cell);
  }
  return cells;
}

/**
 * The cells and judge calls of the plan, without holding its cells: an eval whose items are held
 * is walked cell by cell (exact); a streamed dataset's eval is its count × its matrix cells, each
 * priced on one representative item, at every criterion (an upper bound where `when:` would skip
 * some for a fixed response: only the items say, and they are read as cells are planned).
 */
export function planTotals(options: PlanOptions): { cells: number; judgeCalls: number } {
  let cells = 0;
  let judgeCalls = 0;
  for (const evalConfig of planned(options)) {
    const source = candidateItemsOf(evalConfig, options.suite);
    if (source && "stream" in source) {
      const planning = planningOf(evalConfig, options);
      const representative: DatasetItem = {
        id: "",
        input: "",
        expectedOutput: "",
        annotations: [],
      };
      const atMost = callsPerJudgeAtMost(evalConfig);
      for (const cell of matrixCellsOf(evalConfig)) {
        const one = planCell(planning, { item: "", ...cell }, representative);
        cells += source.stream.count;
        if (one.deferReason === undefined)
          judgeCalls += source.stream.count * atMost * one.judges.length;
      }
      continue;
    }
    const compared = comparedSource(evalConfig, options.suite);
    if (compared && candidateItemsOf(compared, options.suite)?.hasOwnProperty("stream")) {
      // Cells of a streamed source are not held here: at most one pair of them per cell, both orders.
      const pairs = planTotals({ ...options, filter: new RegExp(`^${escaped(compared.name)}$`) });
      for (const cell of heldCells(evalConfig, options)) {
        cells += 1;
        judgeCalls += cell.deferReason !== undefined ? 0 : pairs.cells * 2 * cell.judges.length;
      }
      continue;
    }
    const compare = comparing(evalConfig, options, held(options));
    for (const cell of heldCells(evalConfig, options)) {
      cells += 1;
      judgeCalls += (compare ? compare(cell) : cell).judgeCalls;
    }
  }
  return { cells, judgeCalls };
}
