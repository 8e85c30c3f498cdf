"use client";
import type { DraftCheck } from "./api-types";
import { formatInt } from "../results/format";
import { PlanEvals, usd } from "./plan-evals";
import { PlanModels } from "./plan-models";

/** A total over every eval: when some eval's figure has no price, or leaves unpriced calls out, it says so, never a made-up $0 (an unchanged rerun of fixed responses is truly $0). */
function totalUsd(value: number, figures: readonly (number | null)[], unpricedCalls = 0): string {
  if (!figures.includes(null) && unpricedCalls === 0) return usd(value);
  return value > 0 ? `${usd(value)} + unpriced` : "unpriced";
}

/** What a run of the text in the editor would do, from the validate route. */
export function PlanPanel({
  check,
  checking,
  error,
}: {
  check: DraftCheck | null;
  checking: boolean;
  error?: string;
}) {
  const plan = check?.plan ?? null;
  const errors = check?.issues.filter((i) => i.severity === "error").length ?? 0;
  return (
    <section className="panel" aria-label="Plan" data-testid="plan-panel">
      <h2>Plan {checking ? <span className="spinner" aria-label="Updating" /> : null}</h2>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : check === null ? (
        <div className="skeleton" style={{ height: 64 }} aria-busy="true" />
      ) : plan === null ? (
        <p className="notice notice-warning">
          Fix the {errors === 1 ? "error" : `${errors} errors`} in the editor to see the plan.
        </p>
      ) : (
        <div className={checking ? "stale" : undefined}>
          <div className="metrics metrics-compact">
            <div className="metric">
              <div className="value" data-testid="plan-calls">
                {formatInt(plan.judgeCalls)}
              </div>
              <div className="label">{plan.judgeCalls === 1 ? "judge call" : "judge calls"}</div>
            </div>
            <div className="metric">
              <div className="value" data-testid="plan-naive-cost">
                {totalUsd(
                  plan.naiveUsd,
                  plan.evals.map((e) => e.naiveUsd),
                  plan.evals.reduce((n, e) => n + e.unpricedCalls, 0),
                )}
              </div>
              <div className="label">naive (no cache)</div>
            </div>
            <div className="metric">
              {/* The run's whole projected cost, judges and generation, as `eval --explain` totals it. */}
              <div className="value" data-testid="plan-cost">
                {totalUsd(
                  plan.costUsd + plan.generationUsd,
                  plan.evals.map((e) => e.costUsd),
                  plan.evals.reduce((n, e) => n + e.unpricedCalls, 0),
                )}
              </div>
              {/* When the cache can save nothing, the label says so, in as many words (the panel
                  leaves Problems in view), and its hover says why. */}
              {plan.judgeCalls > 0 && plan.evals.every((e) => e.cacheReadTokens === 0) ? (
                <div
                  className="label"
                  data-testid="plan-cache-none"
                  title="Equal to naive: the prompt cache saves only where calls share a prefix at least as long as the judge model's minimum (2,048 tokens for claude-sonnet-4-6, 4,096 for claude-haiku-4-5), and no call here shares one that long. A longer rubric, more anchors or a shared context reach it."
                >
                  with the prompt cache: no saving
                </div>
              ) : (
                <div className="label">projected, with the prompt cache</div>
              )}
              {plan.generationCalls > 0 ? (
                <div className="metric-note" data-testid="plan-cost-apart">
                  judges {usd(plan.costUsd)} + generation {usd(plan.generationUsd)}
                </div>
              ) : null}
            </div>
            <div className="metric">
              <div className="value" data-testid="plan-batch-cost">
                {totalUsd(
                  plan.batchUsd,
                  plan.evals.map((e) => e.batchUsd),
                  plan.evals.reduce((n, e) => n + e.unpricedCalls, 0),
                )}
              </div>
              <div className="label">with batches (Run as batch)</div>
            </div>
          </div>
          {/* The counts and the rerun on one line under the four costs, so that the panel leaves
              Problems in view beside the editor. */}
          <p className="plan-counts small">
            <strong data-testid="plan-cells">{formatInt(plan.cells)}</strong>{" "}
            {plan.cells === 1 ? "cell" : "cells"} of{" "}
            {plan.evalCount === 1 ? "1 eval" : `${formatInt(plan.evalCount)} evals`} ·{" "}
            <strong data-testid="plan-deferred-count">{formatInt(plan.deferred.length)}</strong>{" "}
            will defer
            {/* The figures size the suite as a run with every key would grade it; a deferred cell
                makes no call, so when some cell defers here the line says its calls are counted. */}
            {plan.deferred.length > 0 ? (
              <span data-testid="plan-deferred-counted"> (counted above as if graded)</span>
            ) : null}{" "}
            ·{" "}
            <span title="A run from here is stored, so the judge cache answers a rerun's calls on fixed responses; judge errors are not cached and are paid again.">
              unchanged rerun
            </span>{" "}
            <strong data-testid="plan-rerun-cost">
              {totalUsd(
                plan.rerunUsd,
                plan.evals.map((e) => e.rerunUsd),
                plan.evals.reduce((n, e) => n + (e.rerunUsd === 0 ? 0 : e.unpricedCalls), 0),
              )}
            </strong>
          </p>
          <PlanEvals cells={plan.evals} />
          <PlanModels models={plan.models} />
          {plan.unpricedModels.length > 0 ? (
            <p className="notice notice-warning small">
              Not in the pricing table, so not in the cost: {plan.unpricedModels.join(", ")}.
            </p>
          ) : null}
          {plan.generationCalls > 0 ? (
            <p
              className="muted small"
              data-testid="plan-generation"
              title="A model answers each prompt, no tools; in the projected cost above, with the judge calls."
            >
              Generation: {formatInt(plan.generationCalls)}{" "}
              {plan.generationCalls === 1 ? "call" : "calls"}, ~{usd(plan.generationUsd)} (no tools)
            </p>
          ) : null}
          {plan.agentCalls > plan.generationCalls ? (
            <p className="muted small">
              Plus up to {formatInt(plan.agentCalls - plan.generationCalls)} live agent model{" "}
              {plan.agentCalls - plan.generationCalls === 1 ? "call" : "calls"} (not priced).
            </p>
          ) : null}
          {/* Closed, side by side: one line under the plan; an opened one takes the whole width. */}
          <div className="plan-more">
            {plan.deferred.length > 0 ? (
              <details>
                <summary className="small">Evals that will defer</summary>
                <ul className="list" data-testid="plan-deferred">
                  {plan.deferred.map((d) => (
                    <li key={d.name}>
                      <strong>{d.name}</strong>
                      <div className="muted small">{d.reason}</div>
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
            {/* On demand, as the deferred evals are: the panel leaves Problems in view. */}
            <details>
              <summary className="small">How this is estimated</summary>
              <p className="muted small" title={plan.assumptions}>
                Estimate: the first call of each shared prefix writes the prompt cache, the calls
                after it read it (where the prefix reaches the model&apos;s minimum); ~300 output
                tokens per call. Batch: the same at Message Batches prices (Run as batch): a Claude
                call&apos;s price halved; a call to another provider is made directly, at its own
                price.
              </p>
            </details>
          </div>
        </div>
      )}
    </section>
  );
}

/** The engine's and schema's issues as a list beside the editor, so they can be read without hovering. */
export function IssuesPanel({ check }: { check: DraftCheck | null }) {
  if (!check) return null;
  return (
    <section className="panel" aria-label="Problems">
      <h2>
        Problems{" "}
        <span
          className={`badge ${check.issues.some((i) => i.severity === "error") ? "badge-danger" : check.issues.length ? "badge-warning" : "badge-success"}`}
        >
          {check.issues.length}
        </span>
      </h2>
      {check.issues.length === 0 ? (
        <p className="muted small">The engine loads this suite without complaint.</p>
      ) : (
        <ul className="list" data-testid="issues-list">
          {check.issues.map((issue, i) => (
            <li key={i}>
              <span className="issue-line">
                {issue.line}:{issue.column}
              </span>
              <span className={issue.severity === "error" ? "" : "muted"}>{issue.message}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
