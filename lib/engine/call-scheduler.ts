import type { JudgeSlot } from "./judge-port";
import type { SkipKind } from "./skip-kind";

// Runs judge calls under a concurrency limit and a spending budget.
// A call that waits out a retry gives its slot back (JudgeSlot.release) and
// queues to take one again ahead of calls not yet started, so a rate-limited
// call never idles a slot that another call could use.
// The budget is checked when a call would start: spent + the estimates of the
// calls in flight + this call's estimate must stay within it. Once a call is
// refused, every later one is too, so "skipped (budget)" is a clean tail.
// A call may also carry stops (a run's cancel request, a worker's shutdown):
// once one fires, that run's calls not yet started are refused at once, while
// other runs sharing the scheduler (a worker's jobs) go on.

/** Why a call was not started: the budget would be passed, or the run was cancelled or interrupted. */
export type SkipReason = SkipKind;

export type Scheduled<T> = { skipped: false; value: T } | { skipped: true; reason: SkipReason };

/** A signal that, once aborted, refuses the calls it was given to that are not yet started. */
export interface ScheduleStop {
  signal: AbortSignal;
  kind: SkipKind;
}

interface Task {
  estimateUsd: number;
  stops: readonly ScheduleStop[];
  start: () => void;
  skip: (reason: SkipReason) => void;
}

export class CallScheduler {
  private readonly concurrency: number;
  private readonly maxCostUsd: number | undefined;
  private active = 0;
  private readonly queue: Task[] = [];
  private readonly reacquirers: (() => void)[] = [];
  private spentUsd = 0;
  private reservedUsd = 0;
  /** The budget refused a call: every later one is refused too. */
  private stopped = false;
  /** A call's stop fired since the queue was last swept. */
  private stopFired = false;

  constructor(options: { concurrency: number; maxCostUsd?: number }) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error("concurrency must be a positive integer");
    this.concurrency = options.concurrency;
    this.maxCostUsd = options.maxCostUsd;
  }

  get spent(): number {
    return this.spentUsd;
  }

  get budgetExhausted(): boolean {
    return this.stopped;
  }

  submit<T>(
    estimateUsd: number,
    work: (slot: JudgeSlot) => Promise<{ value: T; costUsd: number | null }>,
    stops: readonly ScheduleStop[] = [],
  ): Promise<Scheduled<T>> {
    return new Promise((resolve, reject) => {
      const start = () => {
        let held = true;
        const slot: JudgeSlot = {
          release: () => {
            if (!held) return;
            held = false;
            this.active--;
            this.pump();
          },
          acquire: () =>
            new Promise<void>((granted) => {
              if (held) return granted();
              const take = () => {
                held = true;
                this.active++;
                granted();
              };
              if (this.active < this.concurrency) take();
              else this.reacquirers.push(take);
            }),
        };
        work(slot).then(
          ({ value, costUsd }) => {
            this.reservedUsd -= estimateUsd;
            this.spentUsd += costUsd ?? estimateUsd;
            slot.release();
            resolve({ skipped: false, value });
          },
          (error: unknown) => {
            this.reservedUsd -= estimateUsd;
            slot.release();
            reject(error);
          },
        );
      };
      // A stop that fires while the call waits for a slot refuses it then, not when a slot frees up.
      const wake = () => {
        this.stopFired = true;
        this.pump();
      };
      for (const stop of stops) stop.signal.addEventListener("abort", wake, { once: true });
      if (stops.some((stop) => stop.signal.aborted)) this.stopFired = true;
      const settle = () => {
        for (const stop of stops) stop.signal.removeEventListener("abort", wake);
      };
      this.queue.push({
        estimateUsd,
        stops,
        start: () => {
          settle();
          start();
        },
        skip: (reason) => {
          settle();
          resolve({ skipped: true, reason });
        },
      });
      this.pump();
    });
  }

  private pump(): void {
    // Calls whose run was stopped are refused whether or not a slot is free.
    if (this.stopFired) {
      this.stopFired = false;
      for (const task of this.queue.splice(0)) {
        const stop = firedStop(task);
        if (stop) task.skip(stop.kind);
        else this.queue.push(task);
      }
    }
    while (this.active < this.concurrency) {
      const reacquire = this.reacquirers.shift();
      if (reacquire) {
        reacquire();
        continue;
      }
      const task = this.queue.shift();
      if (!task) return;
      const stop = firedStop(task);
      if (stop) {
        task.skip(stop.kind);
        continue;
      }
      if (!this.stopped && this.maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + task.estimateUsd > this.maxCostUsd + 1e-12) {
        this.stopped = true;
      }
      if (this.stopped) {
        task.skip("budget");
        continue;
      }
      this.active++;
      this.reservedUsd += task.estimateUsd;
      task.start();
    }
    // Over the limit or not, refused calls must not wait for a slot to be told so.
    if (this.stopped) for (const task of this.queue.splice(0)) task.skip("budget");
  }
}

function firedStop(task: Task): ScheduleStop | undefined {
  return task.stops.find((stop) => stop.signal.aborted);
}
