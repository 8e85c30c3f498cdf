import type { DiffRow } from "./line-diff";

// A unified diff of two suite versions, as rows from line-diff.ts: the editor's
// versions panel shows it in a scrolling box; the suite's diff page
// (/suites/<id>/diff) at the page's full width and height.

export function DiffView({ rows, full = false }: { rows: DiffRow[]; full?: boolean }) {
  const added = rows.filter((r) => r.kind === "add").length;
  const removed = rows.filter((r) => r.kind === "del").length;
  return (
    <div>
      <p className="small" style={{ margin: "0 0 6px" }} data-testid="diff-summary">
        <span style={{ color: "var(--success)" }}>+{added}</span>{" "}
        <span style={{ color: "var(--danger)" }}>−{removed}</span> lines
      </p>
      <div
        className="diff"
        style={full ? { maxHeight: "none", fontSize: 13 } : undefined}
        data-testid="version-diff"
        role="table"
        aria-label="Differences between the two versions"
      >
        {rows.map((row, i) =>
          row.kind === "gap" ? (
            <div key={i} className="diff-gap">
              ⋯ {row.hidden} unchanged line{row.hidden === 1 ? "" : "s"}
            </div>
          ) : (
            <div
              key={i}
              className={`diff-line ${row.kind === "add" ? "diff-add" : row.kind === "del" ? "diff-del" : ""}`}
              data-kind={row.kind}
              role="row"
            >
              <span className="ln">{row.kind === "add" ? "" : row.oldLine}</span>
              <span className="ln">{row.kind === "del" ? "" : row.newLine}</span>
              <span className="sign">
                {row.kind === "add" ? "+" : row.kind === "del" ? "−" : " "}
              </span>
              <span>{row.text || " "}</span>
            </div>
          ),
        )}
      </div>
    </div>
  );
}
