"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { EvalStatus } from "@/lib/engine/report";
import { formatUsd } from "./format";
import styles from "./results.module.css";
import { StatusCounts } from "./status-counts";

// The live view of a queued or running run: subscribes to the run's event
// stream on load (so leaving and coming back resumes it), shows done of
// total, outcomes, cost and ETA, and refreshes the page when the run ends.

/** The stream's `progress` event (lib/store/run-progress.ts builds it on the server). */
interface RunProgress {
  status: string;
  finished: boolean;
  done: number;
  total: number;
  counts: Record<EvalStatus, number>;
  costUsd: number;
  etaSeconds: number | null;
}

function formatEta(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function RunProgressView({ runId, active }: { runId: string; active: boolean }) {
  const router = useRouter();
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [cancel, setCancel] = useState<{ busy: boolean; message?: string }>({ busy: false });

  useEffect(() => {
    if (!active) return;
    const source = new EventSource(`/api/runs/${runId}/events`);
    source.addEventListener("progress", (event) => setProgress(JSON.parse((event as MessageEvent<string>).data) as RunProgress));
    source.addEventListener("end", () => {
      source.close();
      router.refresh();
    });
    return () => source.close();
  }, [runId, active, router]);

  if (!active && progress === null) return null;
  const done = progress?.done ?? 0;
  const total = progress?.total ?? 0;
  const percent = total > 0 ? Math.round((done / total) * 100) : progress?.finished ? 100 : 0;

  const requestCancel = async () => {
    setCancel({ busy: true });
    const response = await fetch(`/api/runs/${runId}/cancel`, { method: "POST" }).catch(() => undefined);
    setCancel({ busy: false, message: response?.ok ? "Cancel requested: no new judge calls will be scheduled." : "The run could not be cancelled." });
  };

  return (
    <section className={styles.section} data-testid="run-progress" data-status={progress?.status ?? "connecting"} data-done={done} data-total={total}>
      <h2>Progress</h2>
      <div role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} style={{ height: 10, borderRadius: 5, background: "var(--border, #ddd)", overflow: "hidden" }}>
        <div style={{ width: `${percent}%`, height: "100%", background: "var(--accent, #3b82f6)", transition: "width 300ms" }} />
      </div>
      <p className={styles.muted} data-testid="run-progress-summary">
        {progress === null ? "Connecting…" : `${progress.status} · ${done} of ${total} results · ${percent}% · cost ${formatUsd(progress.costUsd)} · ETA ${formatEta(progress.etaSeconds)}`}
      </p>
      {progress ? (
        <div className={styles.stats} data-testid="run-progress-counts">
          <StatusCounts counts={progress.counts} />
        </div>
      ) : null}
      {progress && !progress.finished ? (
        <p>
          <button type="button" className="btn" onClick={() => void requestCancel()} disabled={cancel.busy}>
            Cancel run
          </button>{" "}
          {cancel.message ? (
            <span className={styles.muted} role="status">
              {cancel.message}
            </span>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}
