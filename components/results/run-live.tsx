"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Savings } from "@/lib/engine/results/savings-types";
import { formatSaving } from "@/lib/report/savings-lines";
import { costText, formatInt, formatTime, formatUsd } from "./format";
import { useRunStream } from "./use-run-stream";
import { publishLanded, refreshDelay } from "./live-landed";
import { nextEta, progressFraction, rawEta, type EtaState } from "./run-eta";
import { newerSnapshot, progressSummary, type RunSnapshot } from "./run-snapshot";
import styles from "./results.module.css";
import { RunBadge } from "./status-badge";
import { Stat, StatusCounts } from "./status-counts";

// A run's figures, in one place and from one snapshot: the title's status, the
// "n of m results" line, the progress bar, the outcome counts and the cost
// cards. The server renders the snapshot it read; while the run goes, the
// run's event stream replaces it every half second, and the page (the table,
// the heatmap) is refreshed as results land, so nothing on it lags behind.

export type { RunSnapshot };

/** Refresh the server-rendered parts (table, heatmap) at most this often while results land. */
const REFRESH_MS = 1500;

/**
 * The prompt cache's net saving and, under it, its reads and writes (each in dollars; writes cost
 * 1.25x, a negative saving).
 */
function promptCacheStat(savings: Savings): { value: string; detail: string } {
  const { reads, writes, net } = savings.promptCache;
  return {
    value: formatSaving(net, formatUsd),
    detail: `reads ${formatSaving(reads, formatUsd)} · writes ${formatSaving(writes, formatUsd)}`,
  };
}

export interface RunLiveProps {
  runId: string;
  suiteName: string;
  createdAt: string;
  startedBy: string;
  version: number;
  initial: RunSnapshot;
  /**
   * Opened by the Run button (`?watch=1`): the progress line shows even if the run ended before the
   * page was rendered.
   */
  watch?: boolean;
  /** Shown right under the header line: why results were not graded (a server without a judge key). */
  headerNote?: ReactNode;
}

export function RunLive({
  runId,
  suiteName,
  createdAt,
  startedBy,
  version,
  initial,
  watch = false,
  headerNote,
}: RunLiveProps) {
  const router = useRouter();
  const active = !initial.finished;
  const [live, setLive] = useState<RunSnapshot | null>(null);
  const [eta, setEta] = useState<EtaState | null>(null);
  // A run watched while it ran keeps its progress line once it ends (done, 100%), and so does one just started
  // from the Run button that ended before its page was rendered (a short run, all deferred); a
  // finished run opened later has none.
  const [watched] = useState(active || watch);
  const [cancel, setCancel] = useState<{ busy: boolean; requested?: boolean; failed?: boolean }>({
    busy: false,
  });
  // The table and the heatmap follow the snapshot: a refresh whenever its results done changed
  // since the last one, at most every REFRESH_MS, and none left behind.
  const refreshed = useRef({ done: initial.done, at: 0 });
  const latestDone = useRef(initial.done);
  const trailing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(trailing.current), []);
  const streamNote = useRunStream<RunSnapshot>({
    runId,
    active,
    onPoll: () => router.refresh(),
    onProgress: (next) => {
      const refresh = () => {
        trailing.current = undefined;
        // The latest count, not the one seen when this refresh was scheduled.
        refreshed.current = { done: latestDone.current, at: Date.now() };
        router.refresh();
      };
      setLive(next);
      setEta((previous) => nextEta(previous, next, Date.now()));
      latestDone.current = next.done;
      publishLanded(runId, next.done);
      if (trailing.current) return;
      const wait = refreshDelay(refreshed.current, next.done, Date.now(), REFRESH_MS);
      if (wait === null) return;
      if (wait === 0) refresh();
      else trailing.current = setTimeout(refresh, wait);
    },
    onEnd: () => {
      clearTimeout(trailing.current);
      router.refresh();
    },
  });

  // A cancel asked for here shows at once; the snapshot carries it after a reload.
  const latest = newerSnapshot(initial, live);
  const shown =
    cancel.requested && !latest.finished ? { ...latest, cancelRequested: true } : latest;
  const percent = Math.round(progressFraction(shown) * 100);
  const tokens =
    shown.tokens.input + shown.tokens.output + shown.tokens.cacheRead + shown.tokens.cacheWrite;
  const apart = shown.apart;
  const generated = apart.generationUsd > 0 || (apart.generationTokens ?? 0) > 0;
  const etaSeconds = shown.finished ? null : (eta?.estimate?.seconds ?? rawEta(shown));
  const promptCache = promptCacheStat(shown.savings);

  const requestCancel = async () => {
    setCancel({ busy: true });
    const response = await fetch(`/api/runs/${runId}/cancel`, { method: "POST" }).catch(
      () => undefined,
    );
    setCancel({ busy: false, requested: response?.ok === true, failed: response?.ok !== true });
  };
  const cancelNote = shown.cancelRequested
    ? "Cancel requested: no new judge calls will be scheduled; the cells not started are skipped."
    : cancel.failed
      ? "The run could not be cancelled."
      : undefined;

  return (
    <>
      <h1 className={styles.title}>
        Run of {suiteName}{" "}
        <RunBadge
          status={shown.cancelRequested ? "cancelling" : shown.status}
          counts={shown.counts}
        />
      </h1>
      <p className={styles.muted} data-testid="run-header">
        {formatTime(createdAt)} · started by {startedBy} · suite version v{version} ·{" "}
        <span data-testid="run-header-results">
          {formatInt(shown.done)} of {formatInt(shown.total)}{" "}
          {shown.total === 1 ? "result" : "results"}
        </span>
        {shown.vacuous ? ` · ${shown.vacuous} vacuous` : ""}
      </p>
      {headerNote}
      {streamNote ? (
        <p className={styles.muted} role="status" data-testid="run-stream-note">
          {streamNote}
        </p>
      ) : null}
      {watched ? (
        <section
          className={styles.section}
          data-testid="run-progress"
          data-status={shown.status}
          data-done={shown.done}
          data-total={shown.total}
          data-calls={shown.calls.done}
        >
          <h2>Progress</h2>
          <div
            role="progressbar"
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className={styles.bar}
          >
            <div className={styles.barFill} style={{ width: `${percent}%` }} />
          </div>
          <p className={styles.muted} data-testid="run-progress-summary">
            {progressSummary(shown, etaSeconds)}
          </p>
          {!shown.finished ? (
            <p>
              <button
                type="button"
                className="btn"
                onClick={() => void requestCancel()}
                disabled={cancel.busy || shown.cancelRequested}
              >
                Cancel run
              </button>{" "}
              {cancelNote ? (
                <span className={styles.muted} role="status">
                  {cancelNote}
                </span>
              ) : null}
            </p>
          ) : null}
        </section>
      ) : null}
      <div className={`${styles.section} ${styles.stats}`} data-testid="run-counts">
        <StatusCounts counts={shown.counts} />
      </div>
      <div className={`${styles.section} ${styles.stats}`}>
        <Stat
          label="Cost"
          value={costText(shown)}
          detail={
            generated
              ? `judges ${formatUsd(apart.judgeUsd)} + generation ${formatUsd(apart.generationUsd)}`
              : undefined
          }
          testId="run-cost"
        />
        <Stat
          label="Judge calls"
          value={formatInt(shown.judgeCalls)}
          // The generation's calls, in the CLI summary's words ("generation: 10 calls").
          detail={
            apart.generationCalls
              ? `generation: ${formatInt(apart.generationCalls)} ${apart.generationCalls === 1 ? "call" : "calls"}`
              : undefined
          }
          testId="run-judge-calls"
        />
        <Stat
          label="Tokens"
          value={formatInt(tokens)}
          detail={
            !generated
              ? undefined
              : apart.generationTokens === null
                ? "the judges' so far; the generation's are counted when the run finishes"
                : `judges ${formatInt(apart.judgeTokens)} + generation ${formatInt(apart.generationTokens)}`
          }
          testId="run-tokens"
        />
        <Stat
          label="Cache reads / writes"
          value={`${formatInt(shown.tokens.cacheRead)} / ${formatInt(shown.tokens.cacheWrite)}`}
        />
        <Stat
          label="Saved by the prompt cache"
          value={promptCache.value}
          detail={promptCache.detail}
          testId="run-saved-prompt-cache"
        />
        <Stat label="Reused verdicts" value={formatInt(shown.reusedCalls)} testId="run-reused" />
        <Stat
          label="Saved by reused verdicts"
          value={formatSaving(shown.savings.judgeCache.saved, formatUsd)}
          testId="run-saved-verdicts"
        />
        {shown.savings.batch ? (
          <Stat
            label="Saved by batching"
            value={formatSaving(shown.savings.batch.saved, formatUsd)}
            detail={`${formatInt(shown.savings.batch.calls)} batched ${shown.savings.batch.calls === 1 ? "call" : "calls"} at half price`}
            testId="run-saved-batching"
          />
        ) : null}
      </div>
    </>
  );
}
