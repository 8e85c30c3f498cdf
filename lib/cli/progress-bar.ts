import type { RunEvent } from "../engine/run-suite";
import { formatUsd, plural } from "../engine/results/format-score";
import { formatCount } from "../config/limits";

// A one-line progress bar for long runs, redrawn in place on a TTY at most
// ten times a second. Off a TTY it prints nothing: CI logs stay clean.

const WIDTH = 24;

export interface ProgressBar {
  onEvent(event: RunEvent): void;
  finish(): void;
}

export function createProgressBar(input: {
  stream: NodeJS.WriteStream;
  now: () => number;
}): ProgressBar {
  const { stream, now } = input;
  let started = now();
  let lastDraw = 0;
  let calls = { done: 0, total: 0 };
  let evals = { done: 0, total: 0 };
  let cost = 0;
  let failed = 0;
  let drawn = false;

  const draw = (force = false) => {
    const t = now();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    const fraction = calls.total
      ? calls.done / calls.total
      : evals.total
        ? evals.done / evals.total
        : 1;
    const filled = Math.round(Math.min(1, fraction) * WIDTH);
    const elapsed = (t - started) / 1000;
    const eta =
      fraction > 0 && fraction < 1
        ? ` · ETA ${Math.ceil((elapsed / fraction) * (1 - fraction))}s`
        : "";
    const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
    const line = `${bar} ${formatCount(calls.done)}/${plural(calls.total, "call")} · ${formatCount(evals.done)}/${plural(evals.total, "cell")} · ${formatCount(failed)} failing · ${formatUsd(cost)}${eta}`;
    stream.write(`\r\x1b[2K${line.slice(0, (stream.columns || 120) - 1)}`);
    drawn = true;
  };

  return {
    onEvent(event) {
      if (event.type === "start") {
        started = now();
        calls = { done: 0, total: event.judgeCalls };
        evals = { done: 0, total: event.evals };
      } else if (event.type === "call") {
        calls = { done: event.done, total: event.total };
        cost = event.costUsd;
      } else if (event.type === "result") {
        evals = { done: event.done, total: event.total };
        if (event.result.status === "failed" || event.result.status === "judge_error") failed++;
      }
      draw(event.type === "start");
    },
    finish() {
      if (drawn) stream.write("\r\x1b[2K");
    },
  };
}
