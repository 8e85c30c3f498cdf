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
 * The run page's search text that selects a cell's rows: result names end in
 * their coordinates (`eval [agent=…, model=…, prompt=#n]`, lib/engine's
 * cellName), so the tail of that bracket picks exactly this model and prompt.
 */
export function cellSearch(cell: Pick<MatrixCellView, "model" | "promptIndex">): string {
  const parts: string[] = [];
  if (cell.model !== null) parts.push(`model=${cell.model}`);
  if (cell.promptIndex !== null) parts.push(`prompt=#${cell.promptIndex}`);
  return `${parts.join(", ")}]`;
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
              const q = encodeURIComponent(cellSearch(cell));
              return (
                <td key={prompt ?? "none"}>
                  <Link
                    className={styles.heatCell}
                    style={{ background: colourOf(cell.meanScore) }}
                    href={`/runs/${runId}?q=${q}#results`}
                    data-testid="matrix-cell"
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
