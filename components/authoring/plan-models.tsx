"use client";
import type { DraftModel } from "./api-types";

// The plan panel's models: each judge and agent model of the suite, the
// provider it resolves to on this server (the server's providers only; keys
// never leave it), and "defers: no key" where that provider's key is not set.
export function PlanModels({ models }: { models: DraftModel[] }) {
  if (models.length === 0) return null;
  return (
    // A few models: the whole table, its columns fitted to the side column (no scroll box of its
    // own that clipped the provider and Here columns, below the cost rows' scroll box).
    <div className="plan-models">
      <table className="table small compact" data-testid="plan-models">
        <thead>
          <tr>
            <th>Model</th>
            <th>Provider</th>
            <th>Here</th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={`${m.role}\u0000${m.model}`} data-testid="plan-model" data-model={m.model}>
              <td>
                {m.model}
                {m.role === "agent" ? <span className="muted"> (agent)</span> : null}
              </td>
              <td data-testid="plan-model-provider">
                {m.provider}
                {m.providerModel !== m.model ? (
                  <span className="muted"> · {m.providerModel}</span>
                ) : null}
              </td>
              <td data-testid="plan-model-status" title={m.unavailable}>
                {m.unavailable ? (
                  <span className="badge badge-warning">
                    {/key/.test(m.unavailable) ? "defers: no key" : "defers"}
                  </span>
                ) : (
                  <span className="muted">ready</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
