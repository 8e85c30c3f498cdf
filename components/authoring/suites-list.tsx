"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { apiFetch } from "./api-client";
import { STARTER_SUITE } from "./starter-suite";
import { fullTime, relativeTime } from "./format-time";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EmptyState } from "../ui/states";

export interface SuiteRow {
  id: string;
  name: string;
  versions: number;
  lastSavedAt: string | null;
  /** The last run's outcome (components/results/run-outcome.ts): "completed · 2 failed" is not a green "completed". */
  lastRun: { id: string; label: string; tone: string; createdAt: string } | null;
}

function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">never</span>;
  // Relative times differ between the server's render and the browser's.
  return (
    <time dateTime={iso} title={fullTime(iso)} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  );
}

export function SuitesList({ suites }: { suites: SuiteRow[] }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [newName, setNewName] = useState("");
  const [createError, setCreateError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<{ id: string; name: string; error?: string }>();
  const [deleting, setDeleting] = useState<{ row: SuiteRow; error?: string }>();

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await apiFetch<{ id: string }>("/api/suites", {
      method: "POST",
      body: { name: newName, yaml: STARTER_SUITE },
    });
    setBusy(false);
    if (!result.ok) return setCreateError(result.message);
    router.push(`/suites/${result.value.id}`);
  }

  async function rename(event: FormEvent) {
    event.preventDefault();
    if (!renaming) return;
    setBusy(true);
    const result = await apiFetch(`/api/suites/${renaming.id}`, {
      method: "PATCH",
      body: { name: renaming.name },
    });
    setBusy(false);
    if (!result.ok) return setRenaming({ ...renaming, error: result.message });
    setRenaming(undefined);
    router.refresh();
  }

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    const result = await apiFetch(`/api/suites/${deleting.row.id}`, { method: "DELETE" });
    setBusy(false);
    if (!result.ok) return setDeleting({ ...deleting, error: result.message });
    setDeleting(undefined);
    router.refresh();
  }

  const createForm = (
    <form
      className="card card-body row"
      onSubmit={create}
      style={{ marginBottom: 16, flexWrap: "wrap" }}
      aria-label="New suite"
    >
      <label className="field" style={{ flex: 1, minWidth: 240 }}>
        Name
        <input
          className="input"
          autoFocus
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          placeholder="e.g. support-assistant"
        />
      </label>
      <div className="row" style={{ alignSelf: "flex-end" }}>
        <button type="button" className="btn" onClick={() => setCreating(false)} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || newName.trim() === ""}>
          Create suite
        </button>
      </div>
      <p className="muted small" style={{ width: "100%", margin: 0 }}>
        It starts from a two-eval template you can edit.
      </p>
      {createError ? (
        <p className="notice notice-error" role="alert" style={{ width: "100%", margin: 0 }}>
          {createError}
        </p>
      ) : null}
    </form>
  );

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Suites</h1>
          <p className="muted">
            Rubric suites in YAML: edit them with live validation, see what a run would cost, keep
            every version.
          </p>
        </div>
        {!creating ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => (setCreating(true), setCreateError(undefined))}
          >
            New suite
          </button>
        ) : null}
      </div>
      {creating ? createForm : null}
      {suites.length === 0 ? (
        <div className="card">
          <EmptyState title="No suites yet">
            Create one from the template, or store a run from the CLI with <code>--store</code>.
          </EmptyState>
        </div>
      ) : (
        <div className="card" style={{ overflowX: "auto" }}>
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Versions</th>
                <th>Last saved</th>
                <th>Last run</th>
                <th className="actions">
                  <span className="sr-only" style={{ visibility: "hidden" }}>
                    Actions
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {suites.map((s) => (
                <tr key={s.id} data-testid="suite-row">
                  <td>
                    {renaming?.id === s.id ? (
                      <form
                        className="stack"
                        style={{ gap: 6 }}
                        onSubmit={rename}
                        aria-label={`Rename ${s.name}`}
                      >
                        <div className="row">
                          <input
                            className="input"
                            autoFocus
                            aria-label="New name"
                            value={renaming.name}
                            onChange={(e) => setRenaming({ id: s.id, name: e.target.value })}
                          />
                          <button
                            type="submit"
                            className="btn btn-primary btn-sm"
                            disabled={busy || renaming.name.trim() === ""}
                          >
                            Save
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm"
                            onClick={() => setRenaming(undefined)}
                          >
                            Cancel
                          </button>
                        </div>
                        {renaming.error ? (
                          <span className="notice notice-error">{renaming.error}</span>
                        ) : null}
                      </form>
                    ) : (
                      <Link href={`/suites/${s.id}`} className="suite-name">
                        {s.name}
                      </Link>
                    )}
                  </td>
                  <td>{s.versions}</td>
                  <td>
                    <Time iso={s.lastSavedAt} />
                  </td>
                  <td>
                    {s.lastRun ? (
                      <span className="row">
                        <span className={`badge badge-${s.lastRun.tone}`} data-testid="last-run">
                          {s.lastRun.label}
                        </span>
                        <span className="muted small">
                          <Time iso={s.lastRun.createdAt} />
                        </span>
                      </span>
                    ) : (
                      <span className="muted">no runs</span>
                    )}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => setRenaming({ id: s.id, name: s.name })}
                    >
                      Rename
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      style={{ color: "var(--danger)" }}
                      onClick={() => setDeleting({ row: s })}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this suite?"
        confirmLabel="Delete suite"
        danger
        busy={busy}
        error={deleting?.error}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          <strong>{deleting?.row.name}</strong> will be deleted with its{" "}
          {deleting?.row.versions ?? 0} version(s) and all of its runs and results. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
