import type { CellComparison, CellSelector, CompareItem } from "../../config/pairwise-types";
import { describeComparison } from "../../config/resolve-compare";
import type { ComparedPair, PlannedCell } from "../grade/planned-cell";
import { assumedLiveCandidate } from "./explain-live";

// `compare: { eval, a, b }`: two matrix cells of one eval, compared through
// the pairwise engine. Side A is every cell of the source eval that matches
// a's coordinates, side B every cell that matches b's; what a side leaves out
// it takes from the other. The coordinates neither side names (a dataset
// item, an agent or prompt both leave open) pair the cells up: one pair per
// value, so win rates are over every item and prompt the two cells share.
// Cells that differ only in their judge model grade the same candidate, so
// each candidate is taken once.

function completed(own: CellSelector, other: CellSelector): CellSelector {
  const agent = own.agent ?? other.agent;
  const prompt = own.prompt ?? other.prompt;
  return { ...(agent !== undefined ? { agent } : {}), ...(prompt !== undefined ? { prompt } : {}) };
}

const matches = (cell: PlannedCell, selector: CellSelector) =>
  (selector.agent === undefined || cell.cell?.agent === selector.agent) &&
  (selector.prompt === undefined || cell.cell?.promptIndex === selector.prompt);

/** The source cells of each pair, matched on the coordinates neither side names. */
export function pairCells(input: {
  comparison: CellComparison;
  sourceCells: PlannedCell[];
}): ComparedPair[] {
  const a = completed(input.comparison.a, input.comparison.b);
  const b = completed(input.comparison.b, input.comparison.a);
  const open = (cell: PlannedCell) => ({
    item: cell.cell?.item,
    agent: a.agent === undefined ? cell.cell?.agent : undefined,
    prompt: a.prompt === undefined ? cell.cell?.promptIndex : undefined,
  });
  const keyOf = (cell: PlannedCell) => JSON.stringify(open(cell));
  const distinct = new Map<string, PlannedCell>();
  for (const cell of input.sourceCells) {
    const candidateKey = JSON.stringify([
      cell.cell?.item,
      cell.cell?.agent,
      cell.cell?.promptIndex,
    ]);
    if (!distinct.has(candidateKey)) distinct.set(candidateKey, cell);
  }
  const cells = [...distinct.values()];
  const sideB = new Map(
    cells.filter((cell) => matches(cell, b)).map((cell) => [keyOf(cell), cell]),
  );
  const pairs = cells
    .filter((cell) => matches(cell, a))
    .flatMap((cellA) => {
      const cellB = sideB.get(keyOf(cellA));
      return cellB ? [{ a: cellA, b: cellB }] : [];
    });
  return pairs.map((pair, i) => {
    const coordinates = open(pair.a);
    const parts = [
      coordinates.item !== undefined ? coordinates.item : "",
      coordinates.agent !== undefined ? `agent=${coordinates.agent}` : "",
      coordinates.prompt !== undefined ? `prompt=#${coordinates.prompt}` : "",
    ].filter(Boolean);
    return { id: parts.length > 0 ? parts.join(", ") : String(i + 1), ...pair };
  });
}

/** The prompt a side's candidate answers. */
function promptOf(cell: PlannedCell): string | undefined {
  return cell.candidate?.prompt ?? cell.live?.prompt;
}

/**
 * The pairs as the pairwise engine takes them. `outputOf` gives a side's
 * candidate text (a fixed response, or a live run's transcript, which starts
 * with its own prompt). When the two sides answer different prompts there is
 * no shared input, and a fixed response carries its prompt with it.
 */
export function comparedItems(
  pairs: ComparedPair[],
  outputOf: (cell: PlannedCell) => string,
): CompareItem[] {
  return pairs.map((pair) => {
    const promptA = promptOf(pair.a);
    const promptB = promptOf(pair.b);
    const shared = promptA === promptB;
    const output = (cell: PlannedCell, prompt: string | undefined) =>
      !shared && cell.candidate && prompt !== undefined
        ? `Prompt: ${prompt}\n\nResponse: ${outputOf(cell)}`
        : outputOf(cell);
    return {
      id: pair.id,
      ...(shared && promptA !== undefined ? { input: promptA } : {}),
      outputA: output(pair.a, promptA),
      outputB: output(pair.b, promptB),
    };
  });
}

/**
 * The comparing eval's cell, with its pairs: fixed sides as they are, live
 * sides as transcripts of the assumed size until they have run (so that
 * `--explain` projects realistic requests), and deferred when a side defers.
 */
export function planCellComparison(input: {
  cell: PlannedCell;
  sourceCells: PlannedCell[];
  sourcePlanned: boolean;
}): PlannedCell {
  const { cell } = input;
  const rubric = cell.eval.rubric;
  if (rubric.kind !== "pairwise" || !rubric.comparison.cells)
    throw new Error("planCellComparison: not a comparison of cells");
  const pairs = pairCells({ comparison: rubric.comparison.cells, sourceCells: input.sourceCells });
  const items = comparedItems(
    pairs,
    (side) =>
      side.candidate?.response ?? (side.live ? assumedLiveCandidate(side.live).response : ""),
  );
  const comparison = { ...rubric.comparison, items };
  // A side that cannot be graded, or (with no pairs) a source eval that cannot be planned at all, e.g. its dataset file was not read here.
  const sideDeferred = (
    pairs.length > 0 ? pairs.flatMap((p) => [p.a, p.b]) : input.sourceCells
  ).find((side) => side.deferReason !== undefined);
  const deferReason =
    cell.deferReason ??
    (sideDeferred
      ? `cell ${sideDeferred.name} cannot be graded: ${sideDeferred.deferReason}`
      : pairs.length === 0
        ? `no cells of eval "${rubric.comparison.cells.eval}" match both sides`
        : undefined);
  const callsPerJudge = items.length * 2;
  return {
    ...cell,
    eval: { ...cell.eval, rubric: { ...rubric, comparison } },
    candidate: { response: describeComparison(comparison) },
    deferReason,
    callsPerJudge,
    judgeCalls: deferReason ? 0 : callsPerJudge * cell.judges.length,
    compared: { pairs, sourcePlanned: input.sourcePlanned },
  };
}
