import path from "node:path";
import { Worker } from "node:worker_threads";
import type { SuiteTask, SuiteTaskResult } from "./suite-task";

// Parsing, validating and planning a suite a browser sent is CPU work the
// sender controls; on the server's one event loop it would stall every other
// request while it runs. So it runs here: on a few worker threads, each task
// under a time limit (and the thread under a heap limit), a stuck or
// exhausted thread replaced by a fresh one. Callers get a result or a reason,
// never an exception.

export type OffThread<T> =
  { ok: true; value: T } | { ok: false; code: "too_complex" | "busy" | "failed"; message: string };

export interface SuiteWorkers {
  /** `signal`: the request's; a task whose request is gone before a thread takes it is dropped. */
  run<T extends SuiteTask>(
    task: T,
    options?: { signal?: AbortSignal },
  ): Promise<OffThread<SuiteTaskResult<T>>>;
  /** Ends every thread; tasks in flight answer "failed". */
  close(): Promise<void>;
}

export interface SuiteWorkersOptions {
  /** The worker's entry file (bin/suite-worker.mjs). */
  workerFile: string;
  /** Threads at most (default 2). */
  size?: number;
  /** Per task, from the moment a thread takes it (default 10 s). */
  timeLimitMs?: number;
  /** Tasks that may wait for a thread; beyond that the answer is "busy" (default 32). */
  maxWaiting?: number;
  /** Heap of one thread (default 512 MB). */
  heapMb?: number;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
type Job = { task: SuiteTask; resolve: (result: OffThread<unknown>) => void };

interface Thread {
  worker: Worker;
  ready: Promise<boolean>;
  /** The reason it died, once it has. */
  dead?: string;
  outOfMemory?: boolean;
}

export function createSuiteWorkers(options: SuiteWorkersOptions): SuiteWorkers {
  const size = options.size ?? 2;
  const timeLimitMs = options.timeLimitMs ?? 10_000;
  const maxWaiting = options.maxWaiting ?? 32;
  const heapMb = options.heapMb ?? 512;
  const idle: Thread[] = [];
  const all = new Set<Thread>();
  const waiting: Job[] = [];
  let busy = 0;
  let nextId = 1;
  let closed = false;

  function spawn(): Thread {
    const worker = new Worker(options.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      stdout: false,
      stderr: false,
    });
    // Idle threads must not keep a CLI or a test process alive.
    worker.unref();
    const thread: Thread = { worker, ready: Promise.resolve(false) };
    thread.ready = new Promise<boolean>((resolve) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off("message", onMessage);
        resolve(true);
      };
      worker.on("message", onMessage);
      worker.once("error", (error) => {
        thread.outOfMemory =
          (error as Error & { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
        thread.dead = error.message;
        resolve(false);
      });
      worker.once("exit", () => {
        thread.dead ??= "the checking thread stopped";
        all.delete(thread);
        // A thread that dies idle must not be handed the next task.
        const at = idle.indexOf(thread);
        if (at >= 0) idle.splice(at, 1);
        resolve(false);
      });
    });
    all.add(thread);
    return thread;
  }

  async function execute(job: Job): Promise<void> {
    let thread: Thread | undefined;
    try {
      thread = idle.pop() ?? spawn();
    } catch (error) {
      job.resolve({
        ok: false,
        code: "failed",
        message: `The server could not start a thread to check the suite: ${(error as Error).message}.`,
      });
    }
    if (thread) {
      const answer = await onThread(thread, job.task);
      job.resolve(answer.result);
      if (answer.reusable && !closed) idle.push(thread);
      else void thread.worker.terminate();
    }
    const next = waiting.shift();
    if (next) void execute(next);
    else busy--;
  }

  async function onThread(
    thread: Thread,
    task: SuiteTask,
  ): Promise<{ result: OffThread<unknown>; reusable: boolean }> {
    if (!(await thread.ready))
      return {
        result: {
          ok: false,
          code: "failed",
          message: `The server could not start a thread to check the suite: ${thread.dead}.`,
        },
        reusable: false,
      };
    const id = nextId++;
    return new Promise((resolve) => {
      const finish = (result: OffThread<unknown>, reusable: boolean) => {
        clearTimeout(timer);
        thread.worker.off("message", onMessage);
        thread.worker.off("exit", onExit);
        thread.worker.unref();
        resolve({ result, reusable });
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        if (reply.ok) finish({ ok: true, value: reply.value }, true);
        else
          finish(
            {
              ok: false,
              code: "failed",
              message: `The server failed while checking the suite: ${reply.message}`,
            },
            true,
          );
      };
      const onExit = () => {
        const reason = thread.dead ?? "the checking thread stopped";
        finish(
          thread.outOfMemory
            ? {
                ok: false,
                code: "too_complex",
                message: `Checking this suite needs more than ${heapMb} MB, so the server stopped: make it smaller (fewer evals, matrix cells or jurors).`,
              }
            : {
                ok: false,
                code: "failed",
                message: `The server failed while checking the suite: ${reason}.`,
              },
          false,
        );
      };
      const timer = setTimeout(() => {
        finish(
          {
            ok: false,
            code: "too_complex",
            message:
              task.kind === "agreement"
                ? `Computing this run's judge agreement took longer than ${formatSeconds(timeLimitMs)}, so the server stopped: reload once the run has finished (its figures are kept then).`
                : `Checking this suite took longer than ${formatSeconds(timeLimitMs)}, so the server stopped: make it smaller (fewer evals, matrix cells or jurors) or split it.`,
          },
          false,
        );
      }, timeLimitMs);
      thread.worker.on("message", onMessage);
      thread.worker.on("exit", onExit);
      // Held while working, so a CLI or test waiting for the answer does not exit under it.
      thread.worker.ref();
      thread.worker.postMessage({ id, task });
    });
  }

  return {
    run<T extends SuiteTask>(
      task: T,
      { signal }: { signal?: AbortSignal } = {},
    ): Promise<OffThread<SuiteTaskResult<T>>> {
      if (closed)
        return Promise.resolve({
          ok: false,
          code: "failed",
          message: "The server is shutting down.",
        });
      return new Promise((resolve) => {
        const job: Job = { task, resolve: resolve as Job["resolve"] };
        if (busy < size) {
          busy++;
          void execute(job);
        } else if (waiting.length < maxWaiting) {
          waiting.push(job);
          // The editor aborts its check on every keystroke: a stale one must not hold a place in line.
          signal?.addEventListener(
            "abort",
            () => {
              const at = waiting.indexOf(job);
              if (at < 0) return;
              waiting.splice(at, 1);
              resolve({
                ok: false,
                code: "failed",
                message: "The request was abandoned before the suite was checked.",
              });
            },
            { once: true },
          );
        } else
          resolve({
            ok: false,
            code: "busy",
            message: `The server is already checking ${busy + waiting.length} suites; try again in a moment.`,
          });
      });
    },
    async close() {
      closed = true;
      await Promise.all([...all].map((t) => t.worker.terminate()));
    },
  };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

const holder = globalThis as typeof globalThis & { __rubricStudioSuiteWorkers?: SuiteWorkers };

/**
 * The server's one set of suite-checking threads (kept on globalThis, as the
 * Prisma client is, so that Next's dev reloads do not start more). The entry
 * file is found from the working directory, which `npm run dev` and `npm start`
 * set to the project, rather than through the bundler, which would try to
 * bundle it.
 */
export function suiteWorkers(options: Partial<SuiteWorkersOptions> = {}): SuiteWorkers {
  holder.__rubricStudioSuiteWorkers ??= createSuiteWorkers({
    workerFile: path.join(process.cwd(), "bin", "suite-worker.mjs"),
    ...options,
  });
  return holder.__rubricStudioSuiteWorkers;
}

/** Replaces the server's threads (tests use it to set a short time limit). */
export async function resetSuiteWorkers(options: Partial<SuiteWorkersOptions> = {}): Promise<void> {
  await holder.__rubricStudioSuiteWorkers?.close();
  delete holder.__rubricStudioSuiteWorkers;
  suiteWorkers(options);
}
