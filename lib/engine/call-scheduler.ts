import type { JudgeSlot } from "./judge-port";

// Runs judge calls under a concurrency limit and a spending budget.
// A call that waits out a retry gives its slot back (JudgeSlot.release) and
// queues to take one again ahead of calls not yet started, so a rate-limited
// call never idles a slot that another call could use.
// The budget is checked when a call would start: spent + the estimates of the
// calls in flight + this call's estimate must stay within it. Once a call is
// refused, every later one is too, so "skipped (budget)" is a clean tail.

/** Why a call was not started: the budget would be passed, or the run was cancelled. */
export type SkipReason = "budget" | "cancelled";

export type Scheduled<T> = { skipped: false; value: T } | { skipped: true; reason: SkipReason };

interface Task {
  estimateUsd: number;
  start: () => void;
  skip: () => void;
}

export class CallScheduler {
  private readonly concurrency: number;
  private readonly maxCostUsd: number | undefined;
  private active = 0;
  private readonly queue: Task[] = [];
  private readonly reacquirers: (() => void)[] = [];
  private spentUsd = 0;
  private reservedUsd = 0;
  private stopped = false;
  private stopReason: SkipReason = "budget";

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

  /** Stop starting new calls (calls in flight finish). */
  cancel(): void {
    if (!this.stopped) this.stopReason = "cancelled";
    this.stopped = true;
    this.pump();
  }

  submit<T>(estimateUsd: number, work: (slot: JudgeSlot) => Promise<{ value: T; costUsd: number | null }>): Promise<Scheduled<T>> {
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
      this.queue.push({ estimateUsd, start, skip: () => resolve({ skipped: true, reason: this.stopReason }) });
      this.pump();
    });
  }

  private pump(): void {
    while (this.active < this.concurrency) {
      const reacquire = this.reacquirers.shift();
      if (reacquire) {
        reacquire();
        continue;
      }
      const task = this.queue.shift();
      if (!task) return;
      if (!this.stopped && this.maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + task.estimateUsd > this.maxCostUsd + 1e-12) {
        this.stopped = true;
      }
      if (this.stopped) {
        task.skip();
        continue;
      }
      this.active++;
      this.reservedUsd += task.estimateUsd;
      task.start();
    }
    // Over the limit or not, refused calls must not wait for a slot to be told so.
    if (this.stopped) for (const task of this.queue.splice(0)) task.skip();
  }
}
