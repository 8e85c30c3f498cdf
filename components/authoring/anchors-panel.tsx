"use client";
import type { CheckedAnchor } from "./api-types";
import { JudgeReadings } from "../calibration/judge-readings";
import { anchorScores, anchorsSummary, anchorTone, uncheckedReason } from "./anchor-note";
import { formatUsd } from "../results/format";

// "Check anchors": the judge's score for each calibration anchor of the draft
// against the score it is labelled with. The editor shows the same verdicts
// inline; this panel lists them, with the judge's reasoning, as text, and
// holds the switch and the spend cap of checking as you type.

export interface AnchorsState {
  busy: boolean;
  /** What the last check covered: "the criterion under the cursor" or "all criteria". */
  scope?: string;
  anchors?: CheckedAnchor[];
  /** The text the verdicts are for: the panel says when the draft has moved on. */
  text?: string;
  error?: string;
  issues?: number;
  /** Whether the verdicts came from a check as you type. */
  auto?: boolean;
  /** The check's paid judge calls, the verdicts the judge cache answered besides, and what it cost. */
  calls?: number;
  reused?: number;
  costUsd?: number;
}

/** Checking as you type: on or off, and this open editor's spend against its cap. */
export interface AutoCheckState {
  on: boolean;
  capUsd: number;
  spentUsd: number;
  capReached: boolean;
  /** Why the server could not check as you type (checking was switched off). */
  paused?: string;
  /** Known before any edit: why the server cannot check at all (no judge key); the switch is off and disabled. */
  unavailable?: string;
}

// Money in the page's one format (formatUsd, as the plan panel beside it), the cap included.
const usd = formatUsd;

/** What the check took: judge calls paid and their cost, or verdicts the judge cache answered. */
function fromCache(state: AnchorsState): string {
  const paid = state.calls ?? 0;
  const reused = state.reused ?? 0;
  if (paid === 0 && reused === 0) return "";
  if (paid === 0) return ` · all ${reused} from the judge cache, no cost`;
  return ` · ${paid} judge call${paid === 1 ? "" : "s"}, ${usd(state.costUsd ?? 0)}${reused ? `; ${reused} from the judge cache` : ""}`;
}

export interface AnchorsPanelProps {
  state: AnchorsState;
  current: string;
  onCheck(all: boolean): void;
  auto: AutoCheckState;
  onAuto(on: boolean): void;
  onCap(usd: number): void;
}

export function AnchorsPanel({ state, current, onCheck, auto, onAuto, onCap }: AnchorsPanelProps) {
  const summary = anchorsSummary(state.anchors ?? []);
  return (
    <section className="panel" aria-label="Anchors" data-testid="anchors-panel">
      <h2>Anchors {state.busy ? <span className="spinner" aria-label="Checking" /> : null}</h2>
      <div className="row" style={{ flexWrap: "wrap", marginBottom: 8 }}>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => onCheck(false)}
          disabled={state.busy || auto.unavailable !== undefined}
          title="Grade the anchors of the criterion under the cursor with the server's judge"
        >
          Check anchors
        </button>
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          onClick={() => onCheck(true)}
          disabled={state.busy || auto.unavailable !== undefined}
          title="Grade the anchors of every criterion"
        >
          All criteria
        </button>
      </div>
      <div className="row small" style={{ flexWrap: "wrap", marginBottom: 8, gap: 8 }}>
        <label
          className="row"
          style={{ gap: 4 }}
          title="After an edit to a criterion or its anchors settles, grade that criterion's anchors again"
        >
          <input
            type="checkbox"
            role="switch"
            checked={auto.on}
            disabled={auto.unavailable !== undefined}
            onChange={(e) => onAuto(e.target.checked)}
            data-testid="anchors-auto"
          />
          Check as you type
        </label>
        <span className={auto.capReached ? undefined : "muted"} data-testid="anchors-spend">
          {usd(auto.spentUsd)} of {usd(auto.capUsd)} used
        </span>
        <label className="row muted" style={{ gap: 4 }}>
          cap $
          <input
            className="input"
            type="number"
            min={0}
            step={0.01}
            style={{ width: 72 }}
            aria-label="Spend cap for checking as you type (USD)"
            defaultValue={auto.capUsd}
            onChange={(e) => {
              const value = Number(e.target.value);
              if (e.target.value !== "" && Number.isFinite(value) && value >= 0) onCap(value);
            }}
          />
        </label>
      </div>
      {auto.unavailable ? (
        <p className="muted small" data-testid="anchors-unavailable">
          {auto.unavailable.charAt(0).toUpperCase() + auto.unavailable.slice(1)}.
        </p>
      ) : null}
      {auto.on && auto.capReached ? (
        <p className="notice notice-warning small" data-testid="anchors-cap">
          Spend cap reached: checking as you type has stopped ({usd(auto.spentUsd)} of{" "}
          {usd(auto.capUsd)}). Raise the cap to go on, or check by hand.
        </p>
      ) : null}
      {!auto.on && auto.paused ? (
        <p className="muted small" data-testid="anchors-paused">
          Checking as you type is off: {auto.paused}
        </p>
      ) : null}
      {state.error ? (
        <p className="notice notice-error" role="alert" data-testid="anchors-error">
          {state.error}
        </p>
      ) : state.issues ? (
        <p className="notice notice-warning">
          Fix the {state.issues === 1 ? "error" : `${state.issues} errors`} in the editor first.
        </p>
      ) : state.anchors === undefined ? (
        <p className="muted small">
          Grades each <code>examples:</code> anchor with the judge (itself left out of the prompt)
          and shows judged against labelled beside it. Put the cursor in a criterion to check just
          that one.
        </p>
      ) : state.anchors.length === 0 ? (
        <p className="muted small">
          No anchors to check{state.scope ? ` in ${state.scope}` : ""}: add <code>examples:</code>{" "}
          to a criterion.
        </p>
      ) : (
        <div className={state.busy ? "stale" : undefined}>
          <p className="small" data-testid="anchors-summary">
            {state.anchors.length} anchor{state.anchors.length === 1 ? "" : "s"} of {state.scope}:{" "}
            {summary.text}
            {state.text !== current ? (
              <span className="muted"> (checked an earlier draft)</span>
            ) : null}
          </p>
          <p className="muted small" data-testid="anchors-source">
            {state.auto ? "Checked as you typed" : "Checked by hand"}
            {fromCache(state)}
          </p>
          <ul className="anchor-list">
            {state.anchors.map((a) => (
              <li
                key={`${a.eval}-${a.criterion}-${a.id}`}
                className={
                  { off: "anchor-off", unchecked: "anchor-unchecked", ok: undefined }[anchorTone(a)]
                }
                data-testid="anchor-result"
                data-outlier={a.outlier ? "true" : "false"}
              >
                <div className="small">
                  <strong>
                    line {a.line}: {a.criterion}
                  </strong>{" "}
                  <span className="muted">({a.eval})</span>
                </div>
                <div className="small">
                  {anchorScores(a)}
                  {a.outlier ? (
                    <span className="badge badge-danger" style={{ marginLeft: 6 }}>
                      off
                    </span>
                  ) : null}
                </div>
                {a.judged === null ? (
                  <div className="muted small anchor-reasoning" data-testid="anchor-unchecked">
                    not checked{summary.sharedReason ? "" : `: ${uncheckedReason(a)}`}
                  </div>
                ) : a.judges ? (
                  <JudgeReadings judges={a.judges} judged={a.judged} />
                ) : a.reasoning ? (
                  <div className="muted small anchor-reasoning">{a.reasoning}</div>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
