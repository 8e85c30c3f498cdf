"use client";
import { useEffect, useMemo, useState } from "react";
import { apiFetch } from "./api-client";
import type { VersionInfo, VersionPair } from "./api-types";
import { DiffView } from "./diff-view";
import { diffLines, withContext } from "./line-diff";
import { fullTime, relativeTime } from "./format-time";
import { plural } from "@/lib/engine/results/format-score";
import { suiteYamlUrl } from "./suite-file";

/** Saved versions, newest first, and a unified diff between any two of them. */
export function VersionsPanel({
  suiteId,
  fileName,
  refreshKey,
}: {
  suiteId: string;
  fileName: string;
  refreshKey: number;
}) {
  const [versions, setVersions] = useState<VersionInfo[] | null>(null);
  const [error, setError] = useState<string>();
  const [from, setFrom] = useState<string>();
  const [to, setTo] = useState<string>();

  useEffect(() => {
    let live = true;
    void apiFetch<VersionInfo[]>(`/api/suites/${suiteId}/versions`).then((result) => {
      if (!live) return;
      if (!result.ok) return setError(result.message);
      setError(undefined);
      setVersions(result.value);
      // Default to the last change: the previous version against the newest.
      setTo(result.value[0]?.id);
      setFrom(result.value[1]?.id);
    });
    return () => void (live = false);
  }, [suiteId, refreshKey]);

  const label = (v: VersionInfo, index: number, all: VersionInfo[]) =>
    `v${all.length - index} · ${relativeTime(v.createdAt)}`;

  return (
    <section className="panel" aria-label="Versions">
      <h2>Versions {versions ? <span className="badge">{versions.length}</span> : null}</h2>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : versions === null ? (
        <div className="skeleton" style={{ height: 48 }} aria-busy="true" />
      ) : versions.length === 0 ? (
        <p className="muted small">Nothing saved yet. Save with the button or Ctrl/Cmd+S.</p>
      ) : (
        <>
          <ul className="list" data-testid="versions-list">
            {versions.map((v, i) => (
              <li key={v.id} className="version">
                <strong>v{versions.length - i}</strong>
                <span className="muted small" title={fullTime(v.createdAt)}>
                  {relativeTime(v.createdAt)}
                </span>
                <span className="spacer" />
                <span className="muted small">{plural(v.lines, "line")}</span>
                <a
                  className="small"
                  href={suiteYamlUrl(suiteId, v.id)}
                  download={fileName}
                  aria-label={`Download v${versions.length - i}`}
                  title="Download this version's YAML"
                >
                  Download
                </a>
              </li>
            ))}
          </ul>
          {versions.length > 1 ? (
            <div className="stack" style={{ marginTop: 10, gap: 8 }}>
              <div className="row">
                <label className="field" style={{ flex: 1 }}>
                  From
                  <select
                    className="input"
                    aria-label="Compare from"
                    value={from}
                    onChange={(e) => setFrom(e.target.value)}
                  >
                    {versions.map((v, i, all) => (
                      <option key={v.id} value={v.id}>
                        {label(v, i, all)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field" style={{ flex: 1 }}>
                  To
                  <select
                    className="input"
                    aria-label="Compare to"
                    value={to}
                    onChange={(e) => setTo(e.target.value)}
                  >
                    {versions.map((v, i, all) => (
                      <option key={v.id} value={v.id}>
                        {label(v, i, all)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {from && to ? <VersionDiff suiteId={suiteId} from={from} to={to} /> : null}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function VersionDiff({ suiteId, from, to }: { suiteId: string; from: string; to: string }) {
  const [pair, setPair] = useState<VersionPair | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setPair(null);
    void apiFetch<VersionPair>(
      `/api/suites/${suiteId}/versions/compare?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    ).then((result) => {
      if (!live) return;
      if (result.ok) {
        setError(undefined);
        setPair(result.value);
      } else setError(result.message);
    });
    return () => void (live = false);
  }, [suiteId, from, to]);
  const rows = useMemo(
    () => (pair ? withContext(diffLines(pair.from.yaml, pair.to.yaml)) : []),
    [pair],
  );

  if (error) return <p className="notice notice-error">{error}</p>;
  if (!pair) return <div className="skeleton" style={{ height: 80 }} aria-busy="true" />;
  if (from === to || rows.every((r) => r.kind === "gap"))
    return <p className="muted small">The two versions are identical.</p>;
  return (
    <>
      <DiffView rows={rows} />
      <a
        className="small"
        href={`/suites/${suiteId}/diff?from=${from}&to=${to}`}
        target="_blank"
        rel="noreferrer"
      >
        Open the diff at full width ↗
      </a>
    </>
  );
}
