"use client";
import Link from "next/link";
import { formatUsd, plural } from "@/lib/engine/results/format-score";
import { changedCount, flipCountsText } from "../results/flip-counts";
import { StatusBadge } from "../results/status-badge";
import { fullTime, relativeTime } from "./format-time";
import type { FlipRow, FlipsPlan, PreviewSource } from "./flips-types";
import {
  useFlipsPreview,
  type FlipsPlanState,
  type FlipsPreviewState,
  type PreviewRunOption,
} from "./use-flips-preview";

// "Flips against run…": before saving, which verdicts of a stored run the
// editor's text would flip. The plan line says what a preview pays (the rest
// comes from the judge cache); the list shows the flips first, each with the
// new reasoning of what changed and a link to the stored result.

const short = (id: string) => id.slice(0, 8);

function runLabel(run: PreviewRunOption): string {
  const regrade = run.regradeOf ? ` · re-grade of ${short(run.regradeOf)}` : "";
  return `v${run.version} · ${relativeTime(run.createdAt)} · ${run.status} · run ${short(run.id)}${regrade}`;
}

/** "2 judge calls, $0.0040; 2 from the judge cache": what a preview would pay, said before it starts. */
export function planLine(plan: FlipsPlan): string {
  const cached = plan.reused > 0 ? `; ${plural(plan.reused, "verdict")} from the judge cache` : "";
  if (plan.calls === 0)
    return `Compares ${plural(plan.compared, "result")}: no judge call, every verdict from the judge cache, no cost.`;
  const priced = plan.costUsd > 0 || plan.unpricedCalls === 0 ? `~${formatUsd(plan.costUsd)}` : "";
  const unpriced = plan.unpricedCalls > 0 ? `${plan.unpricedCalls} unpriced` : "";
  const cost = [priced, unpriced].filter(Boolean).join(" + ");
  return `Compares ${plural(plan.compared, "result")}: ${plural(plan.calls, "judge call")} (${cost})${cached}.`;
}

function score(value: { status: string; score: number | null; display: string }) {
  return (
    <>
      <StatusBadge status={value.status} />{" "}
      <span className="num">{value.score === null ? "–" : value.display}</span>
    </>
  );
}

function FlipItem({ flip }: { flip: FlipRow }) {
  return (
    // The bar's colour is the new verdict's: green now passes, red now fails.
    <li data-testid="flip-row" className={flip.now.status === "passed" ? undefined : "anchor-off"}>
      <div className="small">
        <strong>{flip.eval}</strong>
        {flip.cell ? <span className="muted"> · {flip.cell}</span> : null}
      </div>
      <div className="small" data-testid="flip-change">
        {score(flip.previous)} <span aria-label="now">→</span> {score(flip.now)}
      </div>
      {flip.flippedCriteria.length > 0 ? (
        <div className="small" data-testid="flip-criteria">
          {flip.kind === "criteria" ? "Keeps its verdict, but " : ""}
          {flip.flippedCriteria.length === 1 ? "criterion" : "criteria"}{" "}
          <strong>{flip.flippedCriteria.join(", ")}</strong> flipped
        </div>
      ) : null}
      {flip.reasons.map((r) => (
        <div key={r.criterion} className="muted small anchor-reasoning">
          <strong>{r.criterion}</strong>
          {r.score === null ? "" : ` (${r.score.toFixed(2)})`}: {r.reasoning || "(no reasoning)"}
        </div>
      ))}
      <div className="small">
        <Link href={flip.href}>Stored result</Link>
      </div>
    </li>
  );
}

function Against({ source }: { source: PreviewSource }) {
  return (
    <p className="muted small" data-testid="flips-against">
      Against run <Link href={`/runs/${source.runId}`}>{short(source.runId)}</Link> (suite v
      {source.version},{" "}
      <span title={fullTime(source.createdAt)}>{relativeTime(source.createdAt)}</span>
      ): its stored candidates graded with the editor&apos;s text, unsaved changes included.
    </p>
  );
}

export interface FlipsPanelProps {
  runs: readonly PreviewRunOption[];
  runId?: string;
  onRun(id: string): void;
  plan?: FlipsPlanState;
  preview?: FlipsPreviewState;
  current: string;
  onPreview(): void;
  hydrated: boolean;
}

export function FlipsPanel(props: FlipsPanelProps) {
  const { runs, runId, plan, preview } = props;
  const planNow = plan && plan.runId === runId ? plan : undefined;
  const refused = planNow?.value && planNow.value.calls > planNow.value.maxCalls;
  return (
    <section className="panel" aria-label="Flips" data-testid="flips-panel">
      <h2>
        Flips before saving{" "}
        {preview?.busy ? <span className="spinner" aria-label="Previewing" /> : null}
      </h2>
      {runs.length === 0 ? (
        <p className="muted small">
          No stored run of this suite yet. Run it once; then, before saving an edit, preview here
          which of its verdicts the edit would flip.
        </p>
      ) : (
        <>
          <label className="small" style={{ display: "block", marginBottom: 8 }}>
            Flips against run{" "}
            <select
              className="input"
              value={runId ?? ""}
              onChange={(e) => props.onRun(e.target.value)}
              data-testid="flips-run"
              style={{ maxWidth: "100%" }}
            >
              {runs.map((run) => (
                <option key={run.id} value={run.id}>
                  {runLabel(run)}
                </option>
              ))}
            </select>
          </label>
          <p
            className={`small${planNow?.error ? " notice notice-error" : " muted"}`}
            data-testid="flips-plan"
          >
            {runId === undefined
              ? "No finished run to compare with yet: wait for the run to finish."
              : planNow === undefined || (planNow.busy && !planNow.value && !planNow.error)
                ? "Counting the judge calls a preview needs…"
                : planNow.error
                  ? planNow.error
                  : planNow.value
                    ? planLine(planNow.value)
                    : null}
          </p>
          {planNow?.value && planNow.value.deferred > 0 ? (
            <p className="notice notice-warning small" data-testid="flips-deferred">
              {plural(planNow.value.deferred, "result")} cannot be graded here
              {planNow.value.deferReason ? `: ${planNow.value.deferReason}` : ""}.
            </p>
          ) : null}
          {planNow?.value?.unread.map((line) => (
            <p key={line} className="notice notice-warning small" data-testid="flips-unread">
              {line}
            </p>
          ))}
          {refused ? (
            <p className="notice notice-warning small">
              More than one dashboard request may make ({plural(planNow.value!.maxCalls, "call")}):
              edit fewer criteria at once, or save and use <code>rubric-studio regrade</code>.
            </p>
          ) : null}
          <div className="row" style={{ marginBottom: 8 }}>
            <button
              type="button"
              className="btn btn-sm"
              onClick={props.onPreview}
              disabled={!props.hydrated || runId === undefined || Boolean(refused)}
              title="Grade the run's stored candidates with the editor's text (Ctrl/Cmd+Shift+Enter)"
              data-testid="flips-button"
            >
              Preview flips
            </button>
            <span className="muted small">
              <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Enter</kbd>
            </span>
          </div>
          {preview ? null : (
            <p className="muted small">
              Grades the run&apos;s stored candidates with the text in the editor, unsaved changes
              included, and lists the results whose verdict, or one of whose criteria&apos;s, would
              flip (pass to fail, or fail to pass). Nothing is stored.
            </p>
          )}
          <PreviewBody preview={preview} current={props.current} />
        </>
      )}
    </section>
  );
}

function PreviewBody({ preview, current }: { preview?: FlipsPreviewState; current: string }) {
  if (!preview) return null;
  if (preview.error)
    return (
      <p className="notice notice-error small" role="alert" data-testid="flips-error">
        {preview.error}
      </p>
    );
  if (preview.busy || !preview.value) {
    const { done = 0, total } = preview.progress ?? {};
    return (
      <div data-testid="flips-progress" className="small" aria-busy="true">
        {total === undefined
          ? "Grading the stored candidates…"
          : `Graded ${done} of ${plural(total, "result")}…`}
        <progress value={done} max={total ?? 1} style={{ width: "100%" }} />
      </div>
    );
  }
  const value = preview.value;
  const { notGraded } = value.counts;
  const graded = changedCount(value.counts) - notGraded + value.counts.unchanged;
  return (
    <div data-testid="flips-result">
      <Against source={value.source} />
      {preview.text !== current ? (
        <p className="muted small">(previewed an earlier draft: preview again for this one)</p>
      ) : null}
      {graded === 0 ? (
        <p className="notice notice-warning small" data-testid="flips-empty">
          Nothing was graded, so nothing can be said to flip
          {value.deferReason ? `: ${value.deferReason}` : "."}
        </p>
      ) : value.flips.length === 0 ? (
        <p className="small" data-testid="flips-empty">
          Nothing flips: every one of the {plural(graded, "result")} keeps its verdict, and each of
          its criteria keeps its own.
        </p>
      ) : (
        <>
          <p className="small" data-testid="flips-summary">
            <strong>{flipCountsText(value.counts)}</strong>
          </p>
          <ul className="anchor-list">
            {value.flips.map((flip) => (
              <FlipItem key={flip.id} flip={flip} />
            ))}
          </ul>
        </>
      )}
      <p className="muted small" data-testid="flips-footer">
        {value.calls === 0
          ? "No judge call: every verdict came from the judge cache"
          : `${plural(value.calls, "judge call")}, ${formatUsd(value.spentUsd)}`}
        {notGraded > 0 && value.flips.length === 0 ? ` · ${notGraded} not graded` : ""}
        {value.gone.length > 0 ? ` · not in the text any more: ${value.gone.join(", ")}` : ""}
        {value.added.length > 0
          ? ` · ${plural(value.added.length, "new cell")} with no stored candidate (Run grades them)`
          : ""}
        . Nothing is stored until you save.
      </p>
    </div>
  );
}

/** The panel with its state: the editor's workspace gives it the text and the suite's runs. */
export function FlipsSection(input: {
  suiteId: string;
  text: string;
  runs: readonly PreviewRunOption[];
  hydrated: boolean;
}) {
  const flips = useFlipsPreview(input);
  return (
    <FlipsPanel
      runs={input.runs}
      runId={flips.runId}
      onRun={flips.choose}
      plan={flips.plan}
      preview={flips.preview}
      current={input.text}
      onPreview={() => void flips.start()}
      hydrated={input.hydrated}
    />
  );
}
