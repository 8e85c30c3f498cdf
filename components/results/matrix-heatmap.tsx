import Link from "next/link";
import styles from "./results.module.css";

export interface MatrixCellView {
  model: string | null;
  promptIndex: number | null;
  results: number;
  passed: number;
  meanScore: number | null;
}

/**
 * The run page's link that lists exactly one cell's results: its judge model
 * and prompt position as the results query's cell filter (lib/store
 * run-queries), not a name search, which a prompt-only cell would share with
 * the cells of another eval that also vary the model.
 */
export function cellHref(runId: string, cell: Pick<MatrixCellView, "model" | "promptIndex">): string {
  const params = new URLSearchParams();
  if (cell.model !== null) params.set("model", cell.model);
  if (cell.promptIndex !== null) params.set("prompt", String(cell.promptIndex));
  return `/runs/${runId}?${params.toString()}#results`;
}

/** How a cell is named on the page: "claude-haiku-4-5 · prompt #2". */
export function cellLabel(cell: Pick<MatrixCellView, "model" | "promptIndex">): string {
  return [cell.model ?? "(suite judge)", cell.promptIndex === null ? "(one prompt)" : `prompt #${cell.promptIndex}`].join(" · ");
}

// Red (0) to green (1) through amber; ungraded cells stay grey.
function colourOf(score: number | null): string {
  if (score === null) return "#2a3140";
  const hue = Math.round(Math.max(0, Math.min(1, score)) * 120);
  return `hsl(${hue} 55% 30%)`;
}

export function MatrixHeatmap({ runId, cells }: { runId: string; cells: MatrixCellView[] }) {
  const models = [...new Set(cells.map((c) => c.model))].sort((a, b) => (a ?? "").localeCompare(b ?? ""));
  const prompts = [...new Set(cells.map((c) => c.promptIndex))].sort((a, b) => (a ?? 0) - (b ?? 0));
  const at = (model: string | null, prompt: number | null) => cells.find((c) => c.model === model && c.promptIndex === prompt);
  return (
    <table className={`${styles.table} ${styles.heatmap}`} data-testid="matrix-heatmap">
      <thead>
        <tr>
          <th>Judge model \ prompt</th>
          {prompts.map((p) => (
            <th key={p ?? "none"}>{p === null ? "(one prompt)" : `prompt #${p}`}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {models.map((model) => (
          <tr key={model ?? "none"}>
            <th>{model ?? "(suite judge)"}</th>
            {prompts.map((prompt) => {
              const cell = at(model, prompt);
              if (!cell) return <td key={prompt ?? "none"} className={styles.muted}>—</td>;
              return (
                <td key={prompt ?? "none"}>
                  <Link
                    className={styles.heatCell}
                    style={{ background: colourOf(cell.meanScore) }}
                    href={cellHref(runId, cell)}
                    data-testid="matrix-cell"
                    data-model={cell.model ?? ""}
                    data-prompt={cell.promptIndex ?? ""}
                    title={`${cell.results} results; click to list them`}
                  >
                    <strong>{cell.meanScore === null ? "—" : cell.meanScore.toFixed(2)}</strong>
                    <br />
                    {Math.round((cell.passed / cell.results) * 100)}% pass · {cell.results}
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
