import type { JudgeSlot, Scheduled } from "../ports/judge-port";
import type { SkipKind } from "../results/skip-kind";

// Runs judge calls under a concurrency limit and a spending budget.
// A call that waits out a retry gives its slot back (JudgeSlot.release) and
// queues to take one again ahead of calls not yet started, so a rate-limited
// call never idles a slot that another call could use.
// The budget is checked when a call would start: spent + the estimates of the
// calls in flight + this call's estimate must stay within it. An estimate is
// an upper bound (the whole max_tokens of output), so calls in flight usually
// cost far less than they reserve: a call that would fit once they are
// answered (spent + its estimate within the budget) waits for them, with every
// call behind it, rather than being skipped; only a call that passes the
// budget with nothing in flight is refused. So a run spends and skips what it
// would at --concurrency 1. Once a call is refused, every later one is too, so
// "skipped (budget)" is a clean tail.
// A call may also carry stops (a run's cancel request, a worker's shutdown):
// once one fires, that run's calls not yet started are refused at once, while
// other runs sharing the scheduler (a worker's jobs) go on.
// Warm before fan-out: a call may name the prompt-cache prefixes it shares
// with others (JudgePort.cachePrefixes). Concurrent requests with the same new
// prefix would all miss the cache, since an entry is readable only once the
// first response has begun; so the first call of a new prefix goes alone, the
// calls that share it wait until it is answered, and meanwhile the free slots
// go to the next calls that wait for no prefix (in queue order).
// Calls are served in order of their priority (lower first; then in the order
// they came): a worker grading two chunks at once gives its slots to the chunk
// it took first, so that one finishes while the other fills the slots it
// leaves, instead of both reaching their last calls together with the slots
// idle behind them.

/** Why a call was not started: the budget would be passed, or the run was cancelled or interrupted. */
export type SkipReason = SkipKind;

/** A signal that, once aborted, refuses the calls it was given to that are not yet started. */
export interface ScheduleStop {
  signal: AbortSignal;
  kind: SkipKind;
}

/** Where a call waits: what may refuse it, the cache prefixes it shares, and its priority. */
export interface QueuedAs {
  stops?: readonly ScheduleStop[];
  prefixes?: readonly string[];
  /** Lower is served first (default 0); equal priorities in the order they came. */
  priority?: number;
}

interface Task {
  priority: number;
  estimateUsd: number;
  stops: readonly ScheduleStop[];
  prefixes: readonly string[];
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
  /** Calls started and not yet answered (a call waiting out a retry without its slot included). */
  private inFlight = 0;
  /** The budget refused a call: every later one is refused too. */
  private stopped = false;
  /** A call's stop fired since the queue was last swept. */
  private stopFired = false;
  /** Prefixes a call in flight is writing: calls that share one wait. */
  private readonly warming = new Set<string>();
  /** Prefixes whose first call was answered: readable now (until the cache's TTL). */
  private readonly warmed = new Set<string>();
  /** Stop signals listened to, with the number of queued calls that wait on each. */
  private readonly watched = new Map<AbortSignal, number>();

  constructor(options: { concurrency: number; maxCostUsd?: number }) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new Error("concurrency must be a positive integer");
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
    queuedAs: QueuedAs = {},
  ): Promise<Scheduled<T>> {
    const { stops = [], prefixes = [], priority = 0 } = queuedAs;
    return new Promise((resolve, reject) => {
      const start = () => {
        const claimed = prefixes.filter((prefix) => !this.warmed.has(prefix));
        for (const prefix of claimed) this.warming.add(prefix);
        const answered = () => {
          if (this.warmed.size > MAX_WARMED) this.warmed.clear();
          for (const prefix of claimed) {
            this.warming.delete(prefix);
            this.warmed.add(prefix);
          }
        };
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
        this.inFlight++;
        const settled = () => {
          answered();
          this.inFlight--;
          this.reservedUsd -= estimateUsd;
          slot.release();
          // A call that waited out a retry without its slot frees no slot, but its reservation may let a held call start.
          this.pump();
        };
        work(slot).then(
          ({ value, costUsd }) => {
            this.spentUsd += costUsd ?? estimateUsd;
            settled();
            resolve({ skipped: false, value });
          },
          (error: unknown) => {
            settled();
            reject(error);
          },
        );
      };
      // A stop that fires while the call waits for a slot refuses it then, not when a slot frees up.
      for (const stop of stops) this.watch(stop.signal);
      if (stops.some((stop) => stop.signal.aborted)) this.stopFired = true;
      const settle = () => {
        for (const stop of stops) this.unwatch(stop.signal);
      };
      const task: Task = {
        priority,
        estimateUsd,
        stops,
        prefixes,
        start: () => {
          settle();
          start();
        },
        skip: (reason) => {
          settle();
          resolve({ skipped: true, reason });
        },
      };
      // Behind every call of its priority or a lower one (the queue holds a run's window, not its plan).
      const after = this.queue.findLastIndex((queued) => queued.priority <= priority);
      if (after === this.queue.length - 1) this.queue.push(task);
      else this.queue.splice(after + 1, 0, task);
      this.pump();
    });
  }

  /**
   * One listener per stop signal however many calls wait on it: a run's
   * cancel and a worker's shutdown are shared by every call, and a listener
   * each would pile up past Node's limit (MaxListenersExceededWarning).
   */
  private watch(signal: AbortSignal): void {
    const waiting = this.watched.get(signal) ?? 0;
    if (waiting === 0) signal.addEventListener("abort", this.onStop, { once: true });
    this.watched.set(signal, waiting + 1);
  }

  private unwatch(signal: AbortSignal): void {
    const waiting = (this.watched.get(signal) ?? 1) - 1;
    if (waiting > 0) return void this.watched.set(signal, waiting);
    this.watched.delete(signal);
    signal.removeEventListener("abort", this.onStop);
  }

  private readonly onStop = () => {
    this.stopFired = true;
    this.pump();
  };

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
      const next = this.queue.findIndex((task) => !this.waitsForWarming(task));
      if (next < 0) return;
      const task = this.queue.splice(next, 1)[0]!;
      const stop = firedStop(task);
      if (stop) {
        task.skip(stop.kind);
        continue;
      }
      if (
        !this.stopped &&
        this.maxCostUsd !== undefined &&
        this.spentUsd + this.reservedUsd + task.estimateUsd > this.maxCostUsd + 1e-12
      ) {
        if (this.inFlight > 0 && this.spentUsd + task.estimateUsd <= this.maxCostUsd + 1e-12) {
          // Held, in its place, until the calls in flight are answered and their reservations clear.
          this.queue.splice(next, 0, task);
          return;
        }
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

  private waitsForWarming(task: Task): boolean {
    if (this.warming.size === 0) return false;
    return task.prefixes.some((prefix) => this.warming.has(prefix) && !this.warmed.has(prefix));
  }
}

/** A bound on the prefixes remembered as warmed (a worker's scheduler lives long); past it they are forgotten, which costs at most a few concurrent misses. */
const MAX_WARMED = 100_000;

function firedStop(task: Task): ScheduleStop | undefined {
  return task.stops.find((stop) => stop.signal.aborted);
}
