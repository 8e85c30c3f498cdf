"use client";
import type { CheckedAnchor } from "./api-types";
import { JudgeReadings } from "../calibration/judge-readings";

// "Check anchors": the judge's score for each calibration anchor of the draft
// against the score it is labelled with. The editor shows the same verdicts
// inline; this panel lists them, with the judge's reasoning, as text.

export interface AnchorsState {
  busy: boolean;
  /** What the last check covered: "the criterion under the cursor" or "all criteria". */
  scope?: string;
  anchors?: CheckedAnchor[];
  /** The text the verdicts are for: the panel says when the draft has moved on. */
  text?: string;
  error?: string;
  issues?: number;
}

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export function AnchorsPanel({ state, current, onCheck }: { state: AnchorsState; current: string; onCheck(all: boolean): void }) {
  const off = state.anchors?.filter((a) => a.outlier).length ?? 0;
  return (
    <section className="panel" aria-label="Anchors" data-testid="anchors-panel">
      <h2>Anchors {state.busy ? <span className="spinner" aria-label="Checking" /> : null}</h2>
      <div className="row" style={{ flexWrap: "wrap", marginBottom: 8 }}>
        <button type="button" className="btn btn-sm" onClick={() => onCheck(false)} disabled={state.busy} title="Grade the anchors of the criterion under the cursor with the server's judge">
          Check anchors
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => onCheck(true)} disabled={state.busy} title="Grade the anchors of every criterion">
          All criteria
        </button>
      </div>
      {state.error ? (
        <p className="notice notice-error" role="alert" data-testid="anchors-error">
          {state.error}
        </p>
      ) : state.issues ? (
        <p className="notice notice-warning">Fix the {state.issues === 1 ? "error" : `${state.issues} errors`} in the editor first.</p>
      ) : state.anchors === undefined ? (
        <p className="muted small">
          Grades each <code>examples:</code> anchor with the judge (itself left out of the prompt) and shows judged against labelled beside it. Put the cursor in a criterion to check just that one.
        </p>
      ) : state.anchors.length === 0 ? (
        <p className="muted small">No anchors to check{state.scope ? ` in ${state.scope}` : ""}: add <code>examples:</code> to a criterion.</p>
      ) : (
        <div className={state.busy ? "stale" : undefined}>
          <p className="small" data-testid="anchors-summary">
            {state.anchors.length} anchor{state.anchors.length === 1 ? "" : "s"} of {state.scope}: {off === 0 ? "all within ±0.25 of their labels." : `${off} off by more than ±0.25.`}
            {state.text !== current ? <span className="muted"> (checked an earlier draft)</span> : null}
          </p>
          <ul className="anchor-list">
            {state.anchors.map((a) => (
              <li key={`${a.eval}-${a.criterion}-${a.id}`} className={a.outlier ? "anchor-off" : undefined} data-testid="anchor-result" data-outlier={a.outlier ? "true" : "false"}>
                <div className="small">
                  <strong>
                    line {a.line}: {a.criterion}
                  </strong>{" "}
                  <span className="muted">({a.eval})</span>
                </div>
                <div className="small">
                  labelled {fixed(a.label)} · judged {fixed(a.judged)}
                  {a.outlier ? <span className="badge badge-danger" style={{ marginLeft: 6 }}>off</span> : null}
                </div>
                {a.judges ? (
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
