import Link from "next/link";
import styles from "./results.module.css";
import { passRate } from "./run-outcome";

export interface MatrixCellView {
  /** The judge model (matrix.models). */
  model: string | null;
  /** The candidate's model (matrix.agents): the live agent, or the model that generated the candidate. */
  agent?: string | null;
  promptIndex: number | null;
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
  if (cell.agent) params.set("agent", cell.agent);
  if (cell.model !== null) params.set("model", cell.model);
  if (cell.promptIndex !== null) params.set("prompt", String(cell.promptIndex));
  return `/runs/${runId}?${params.toString()}#results`;
}

type CellAxes = Pick<MatrixCellView, "model" | "agent" | "promptIndex">;

/**
 * A cell's row on the heatmap: the candidate's model when the matrix varies it
 * (matrix.agents: what a matrix of generated candidates compares), with the
 * judge model when that varies too; else the judge model.
 */
export function cellRow(cell: Pick<MatrixCellView, "model" | "agent">): string {
  if (!cell.agent) return cell.model ?? "(suite judge)";
  return cell.model ? `${cell.agent} (judged by ${cell.model})` : cell.agent;
}

/** How a cell is named on the page: "claude-haiku-4-5 · prompt #2". */
export function cellLabel(cell: CellAxes): string {
  return [
    cellRow(cell),
    cell.promptIndex === null ? "(one prompt)" : `prompt #${cell.promptIndex}`,
  ].join(" · ");
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
const byIndex = (a: number | null, b: number | null) => (a ?? -1) - (b ?? -1);

/**
 * The one order of a run's matrix cells, for the heatmap and the bars alike:
 * by candidate model, then judge model (the suite judge first), then prompt index, numerically
 * (prompt #2 before prompt #10). The store's groupBy gives them in no fixed order.
 */
export function sortCells<T extends CellAxes>(cells: readonly T[]): T[] {
  return [...cells].sort(
    (a, b) =>
      byName(a.agent ?? null, b.agent ?? null) ||
      byName(a.model, b.model) ||
      byIndex(a.promptIndex, b.promptIndex),
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
  const rows = [...new Set(sorted.map(cellRow))];
  const prompts = [...new Set(sorted.map((c) => c.promptIndex))].sort(byIndex);
  const at = (row: string, prompt: number | null) =>
    cells.find((c) => cellRow(c) === row && c.promptIndex === prompt);
  const byAgent = cells.some((c) => c.agent);
  return (
    <table className={`${styles.table} ${styles.heatmap}`} data-testid="matrix-heatmap">
      <thead>
        <tr>
          <th>{byAgent ? "Candidate model \\ prompt" : "Judge model \\ prompt"}</th>
          {prompts.map((p) => (
            <th key={p ?? "none"}>{p === null ? "(one prompt)" : `prompt #${p}`}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row}>
            <th className={styles.heatRow} title={row}>
              {row}
            </th>
            {prompts.map((prompt) => {
              const cell = at(row, prompt);
              if (!cell)
                return (
                  <td key={prompt ?? "none"} className={styles.muted}>
                    —
                  </td>
                );
              const tone = cellTone(cell);
              const isSelected =
                selected !== undefined &&
                selected.model === cell.model &&
                (selected.agent ?? null) === (cell.agent ?? null) &&
                selected.promptIndex === cell.promptIndex;
              return (
                <td key={prompt ?? "none"}>
                  <Link
                    className={`${styles.heatCell} ${isSelected ? styles.heatSelected : ""}`}
                    style={{ background: TONES[tone] }}
                    href={cellHref(runId, cell)}
                    data-testid="matrix-cell"
                    data-model={cell.model ?? ""}
                    data-prompt={cell.promptIndex ?? ""}
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
