"use client";
import { useState } from "react";
import type { DraftPlan } from "./api-types";
import { formatInt, formatUsd } from "../results/format";

type DraftEvalCost = DraftPlan["evals"][number];

/** The page's one money format (formatUsd); "unpriced" where a model has no price. */
export const usd = (value: number | null): string =>
  value === null ? "unpriced" : formatUsd(value);

/** The figures of one row: a cell's, or an eval's cells summed. */
type RowFigures = Omit<DraftEvalCost, "name" | "eval"> & {
  /** The unpriced calls a rerun pays again (those of cells the judge cache does not answer whole). */
  rerunUnpricedCalls: number;
};

export interface PlanEvalRow extends RowFigures {
  /** The suite's eval. */
  name: string;
  /** Its cells, in plan order (one for an eval without a matrix or dataset). */
  cells: DraftEvalCost[];
}

/** A cell's figures as a row's. */
const cellFigures = (c: DraftEvalCost): RowFigures => ({
  ...c,
  rerunUnpricedCalls: c.rerunUsd === 0 ? 0 : c.unpricedCalls,
});

/** A sum of priced parts: null only when no part has a price (as each cell's own figure is). */
function sumUsd(values: (number | null)[]): number | null {
  const priced = values.filter((v): v is number => v !== null);
  return priced.length === 0 ? null : priced.reduce((a, b) => a + b, 0);
}

/**
 * One row per eval, its cells summed in plan order (the order `--explain` totals them, so twenty
 * evals of 50 cells add up to the panel's headline figures).
 */
export function planEvalRows(cells: readonly DraftEvalCost[]): PlanEvalRow[] {
  const byEval = new Map<string, DraftEvalCost[]>();
  for (const cell of cells) {
    const list = byEval.get(cell.eval);
    if (list) list.push(cell);
    else byEval.set(cell.eval, [cell]);
  }
  return [...byEval].map(([name, list]) => {
    const figures = list.map(cellFigures);
    const total = (key: "judgeCalls" | "unpricedCalls" | "rerunUnpricedCalls") =>
      figures.reduce((n, f) => n + f[key], 0);
    return {
      name,
      cells: list,
      judgeCalls: total("judgeCalls"),
      naiveUsd: sumUsd(list.map((c) => c.naiveUsd)),
      costUsd: sumUsd(list.map((c) => c.costUsd)),
      batchUsd: sumUsd(list.map((c) => c.batchUsd)),
      rerunUsd: sumUsd(list.map((c) => c.rerunUsd)),
      unpricedCalls: total("unpricedCalls"),
      rerunUnpricedCalls: total("rerunUnpricedCalls"),
      cacheWriteTokens: list.reduce((n, c) => n + c.cacheWriteTokens, 0),
      cacheReadTokens: list.reduce((n, c) => n + c.cacheReadTokens, 0),
    };
  });
}

/** An eval's figure: its priced part, and its unpriced calls beside it ("$0.0123 + 2 unpriced"). */
function evalUsd(value: number | null, unpricedCalls: number): string {
  if (value === null || unpricedCalls === 0) return usd(value);
  return `${usd(value)} + ${unpricedCalls} unpriced`;
}

/** What `--explain` says beside an eval's cost with the cache. */
function cacheTitle(e: { cacheWriteTokens: number; cacheReadTokens: number }): string {
  if (e.cacheWriteTokens + e.cacheReadTokens === 0)
    return "no prefix cached (below the model's minimum, or no price)";
  return `${formatInt(e.cacheWriteTokens)} input tokens written to the prompt cache, ${formatInt(e.cacheReadTokens)} read`;
}

/** A row's five figures: Calls, Naive, With cache, Batch, Rerun. */
function Figures({ f }: { f: RowFigures }) {
  return (
    <>
      <td className="num">{formatInt(f.judgeCalls)}</td>
      <td className="num">{evalUsd(f.naiveUsd, f.unpricedCalls)}</td>
      <td className="num" title={cacheTitle(f)}>
        {evalUsd(f.costUsd, f.unpricedCalls)}
      </td>
      <td className="num">{evalUsd(f.batchUsd, f.unpricedCalls)}</td>
      {/* A rerun the judge cache answers whole costs nothing, unpriced calls included. */}
      <td className="num">{evalUsd(f.rerunUsd, f.rerunUnpricedCalls)}</td>
    </>
  );
}

/** The cells an eval's breakdown lists before "… and N more cells". */
export const TOP_CELLS = 5;

/** The costliest cells first (with the cache; unpriced ones last), plan order among equals. */
const byCost = (cells: readonly DraftEvalCost[]) =>
  cells
    .map((cell, index) => ({ cell, index }))
    .sort((a, b) => (b.cell.costUsd ?? -1) - (a.cell.costUsd ?? -1) || a.index - b.index)
    .map((x) => x.cell);

/** A cell's name under its eval's: its matrix cell or dataset item ("[prompt=#3]"). */
const cellLabel = (cell: DraftEvalCost) =>
  cell.name.startsWith(`${cell.eval} `) ? cell.name.slice(cell.eval.length + 1) : cell.name;

/** One eval: its name, its cells summed, and on demand its costliest cells. */
function EvalRows({ row }: { row: PlanEvalRow }) {
  const [open, setOpen] = useState(false);
  const [all, setAll] = useState(false);
  const many = row.cells.length > 1;
  const shown = open ? byCost(row.cells).slice(0, all ? undefined : TOP_CELLS) : [];
  const more = row.cells.length - shown.length;
  return (
    <tbody>
      <tr className="plan-eval-name">
        <th className="name" colSpan={5} scope="rowgroup">
          {row.name}
          {many ? (
            <>
              {" "}
              <button
                type="button"
                className="link-button plan-eval-cells"
                aria-expanded={open}
                title={open ? "Hide its cells" : "Its costliest cells"}
                onClick={() => setOpen(!open)}
              >
                {formatInt(row.cells.length)} cells {open ? "▾" : "▸"}
              </button>
            </>
          ) : null}
        </th>
      </tr>
      <tr data-testid="plan-eval" data-cells={row.cells.length}>
        <Figures f={row} />
      </tr>
      {shown.map((cell, i) => (
        <CellRows key={i} cell={cell} />
      ))}
      {open && more > 0 ? (
        <tr className="plan-cell-more">
          <td colSpan={5} className="muted small">
            … and {formatInt(more)} more {more === 1 ? "cell" : "cells"} (in the sum above){" "}
            <button type="button" className="link-button" onClick={() => setAll(true)}>
              show all
            </button>
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}

function CellRows({ cell }: { cell: DraftEvalCost }) {
  return (
    <>
      <tr className="plan-cell-name">
        <td colSpan={5} className="muted">
          {cellLabel(cell)}
        </td>
      </tr>
      <tr data-testid="plan-cell" className="plan-cell">
        <Figures f={cellFigures(cell)} />
      </tr>
    </>
  );
}

/** The plan's cost rows: one per eval, in a box of bounded height that scrolls under its header. */
export function PlanEvals({ cells }: { cells: readonly DraftEvalCost[] }) {
  if (cells.length === 0) return null;
  return (
    <div className="plan-scroll">
      <table className="table small compact" data-testid="plan-evals">
        <thead>
          <tr>
            <th className="num">Calls</th>
            <th className="num">Naive</th>
            <th className="num">With cache</th>
            <th
              className="num"
              title="With the prompt cache, at Message Batches prices (Run as batch): half"
            >
              Batch
            </th>
            <th className="num">Rerun</th>
          </tr>
        </thead>
        {/* Each eval's name on a line of its own, above its figures: five figures fit the editor's width, a name beside them did not. */}
        {planEvalRows(cells).map((row) => (
          <EvalRows key={row.name} row={row} />
        ))}
      </table>
    </div>
  );
}
