import Link from "next/link";
import styles from "./results.module.css";
import { passRate } from "./run-outcome";

export interface MatrixCellView {
  /** The judge model (matrix.models). */
  model: string | null;
  /** The candidate's model (matrix.agents): the live agent, or the model that generated the candidate. */
  agent?: string | null;
  promptIndex: number | null;
  /** The eval of a cell with no prompt position: its column is the eval, over all its items. */
  evalName?: string;
  /** The cell's place in the suite's order (lib/store MatrixCell.order); absent in older kept figures. */
  order?: string;
  results: number;
  passed: number;
  failed: number;
  judge_error: number;
  meanScore: number | null;
}

type CellCounts = Pick<MatrixCellView, "passed" | "failed" | "judge_error">;

/**
 * The run page's link that lists exactly one cell's results: its judge model
 * and prompt position as the results query's cell filter (lib/store
 * run-queries), not a name search, which a prompt-only cell would share with
 * the cells of another eval that also vary the model.
 */
export function cellHref(runId: string, cell: CellAxes): string {
  const params = new URLSearchParams();
  // An eval's column: its results are those whose name holds the eval's ("qa [item=…, agent=…]").
  if (cell.evalName !== undefined) params.set("q", cell.evalName);
  if (cell.agent) params.set("agent", cell.agent);
  if (cell.model !== null) params.set("model", cell.model);
  if (cell.promptIndex !== null) params.set("prompt", String(cell.promptIndex));
  return `/runs/${runId}?${params.toString()}#results`;
}

type CellAxes = Pick<MatrixCellView, "model" | "agent" | "promptIndex" | "evalName">;

/** A column's heading: the prompt's position, or the eval (over all its items), or neither. */
function columnLabel(cell: Pick<CellAxes, "promptIndex" | "evalName">): string {
  if (cell.promptIndex !== null) return `prompt #${cell.promptIndex}`;
  return cell.evalName !== undefined ? cell.evalName : "every result";
}

const columnKey = (cell: Pick<CellAxes, "promptIndex" | "evalName">) =>
  cell.promptIndex !== null ? `#${cell.promptIndex}` : `eval:${cell.evalName ?? ""}`;

/**
 * A cell's row on the heatmap: the candidate's model when the matrix varies it
 * (matrix.agents: what a matrix of generated candidates compares), with the
 * judge model when that varies too; else the judge model.
 */
export function cellRow(cell: Pick<MatrixCellView, "model" | "agent">): string {
  if (!cell.agent) return cell.model ?? "(judges as configured)";
  return cell.model ? `${cell.agent} (judged by ${cell.model})` : cell.agent;
}

/** How a cell is named on the page: "claude-haiku-4-5 · prompt #2", "gpt-4.1-mini · capital cities". */
export function cellLabel(cell: CellAxes): string {
  return [cellRow(cell), columnLabel(cell)].join(" · ");
}

/**
 * A cell's colour says whether its results passed, not how high they scored:
 * a cell whose mean is 0.58 but where nothing passed is red, not green. Over
 * the graded results, as the runs list's pass rate (passRate): green when
 * every one passed, red when none did, amber between; grey when nothing was
 * graded (deferred or skipped are not failures).
 */
export function cellTone(cell: CellCounts): "pass" | "mixed" | "fail" | "ungraded" {
  const rate = passRate(cell);
  if (rate === null) return "ungraded";
  if (rate === 1) return "pass";
  return rate === 0 ? "fail" : "mixed";
}

const TONES = {
  pass: "hsl(130 45% 30%)",
  mixed: "hsl(38 80% 34%)",
  fail: "hsl(0 60% 38%)",
  ungraded: "#5d6877",
};

/** The cell's text and tooltip: how many of its graded results passed, the runs list's pass rate. */
export function cellSummary(cell: CellCounts): string {
  const rate = passRate(cell);
  if (rate === null) return "nothing graded";
  return `${cell.passed} of ${cell.passed + cell.failed + cell.judge_error} graded passed (${Math.round(rate * 100)}%)`;
}

const byName = (a: string | null, b: string | null) =>
  (a ?? "").localeCompare(b ?? "", "en", { numeric: true });
/** Prompts by position, then the cells with none (an eval's column) after them. */
const byIndex = (a: number | null, b: number | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b;

/** Cells kept by a version before the cells had their place: by name, the judges as configured first. */
const byAxes = (a: CellAxes, b: CellAxes) =>
  byName(a.agent ?? null, b.agent ?? null) ||
  byName(a.model, b.model) ||
  byIndex(a.promptIndex, b.promptIndex) ||
  byName(a.evalName ?? null, b.evalName ?? null);

/**
 * The one order of a run's matrix cells, for the heatmap and the bars alike: the suite's order, as
 * the CLI and the results table list the run (each cell at its first result's place: the evals as
 * written, then items, agents, judge models and prompts as the matrix lists them). Cells kept
 * without their place (figures of older versions) by candidate model, judge model, then prompt
 * index numerically. The store's groupBy gives them in no fixed order.
 */
export function sortCells<T extends CellAxes & { order?: string }>(cells: readonly T[]): T[] {
  return [...cells].sort((a, b) =>
    a.order !== undefined && b.order !== undefined && a.order !== b.order
      ? a.order < b.order
        ? -1
        : 1
      : byAxes(a, b),
  );
}

export function MatrixHeatmap({
  runId,
  cells,
  selected,
}: {
  runId: string;
  cells: MatrixCellView[];
  selected?: CellAxes;
}) {
  const sorted = sortCells(cells);
  // Rows and columns in the order their first cell comes in (the suite's order).
  const rows = [...new Set(sorted.map(cellRow))];
  // The columns are what varies: the prompts, else the evals (a dataset's items, all of them, in one).
  const columns = [...new Map(sorted.map((c) => [columnKey(c), c])).values()];
  if (cells.some((c) => c.order === undefined))
    columns.sort(
      (a, b) =>
        byIndex(a.promptIndex, b.promptIndex) || byName(a.evalName ?? null, b.evalName ?? null),
    );
  const at = (row: string, column: string) =>
    cells.find((c) => cellRow(c) === row && columnKey(c) === column);
  const byAgent = cells.some((c) => c.agent);
  const byEval = cells.some((c) => c.evalName !== undefined);
  const byPrompt = cells.some((c) => c.promptIndex !== null);
  return (
    <table className={`${styles.table} ${styles.heatmap}`} data-testid="matrix-heatmap">
      <thead>
        <tr>
          <th>
            {`${byAgent ? "Candidate model" : "Judge model"} \\ ${byEval ? (byPrompt ? "prompt or eval" : "eval") : "prompt"}`}
          </th>
          {columns.map((c) => (
            <th key={columnKey(c)} data-testid="matrix-column">
              {columnLabel(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row}>
            <th className={styles.heatRow} title={row}>
              {row}
            </th>
            {columns.map((column) => {
              const key = columnKey(column);
              const cell = at(row, key);
              if (!cell)
                return (
                  <td key={key} className={styles.muted}>
                    —
                  </td>
                );
              const tone = cellTone(cell);
              const isSelected =
                selected !== undefined &&
                selected.model === cell.model &&
                (selected.agent ?? null) === (cell.agent ?? null) &&
                selected.promptIndex === cell.promptIndex &&
                (cell.evalName === undefined || selected.evalName === cell.evalName);
              return (
                <td key={key}>
                  <Link
                    className={`${styles.heatCell} ${isSelected ? styles.heatSelected : ""}`}
                    style={{ background: TONES[tone] }}
                    href={cellHref(runId, cell)}
                    data-testid="matrix-cell"
                    data-model={cell.model ?? ""}
                    data-prompt={cell.promptIndex ?? ""}
                    data-eval={cell.evalName ?? ""}
                    data-agent={cell.agent ?? ""}
                    data-tone={tone}
                    aria-current={isSelected ? "true" : undefined}
                    title={`${cellLabel(cell)}: mean ${cell.meanScore === null ? "—" : cell.meanScore.toFixed(2)}, ${cellSummary(cell)}; click to list them`}
                  >
                    <strong>
                      {tone === "pass" ? "✓" : tone === "fail" ? "✗" : tone === "mixed" ? "◐" : "—"}{" "}
                      {cellSummary(cell)}
                    </strong>
                    <br />
                    mean {cell.meanScore === null ? "—" : cell.meanScore.toFixed(2)}
                  </Link>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
