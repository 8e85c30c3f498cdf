// Calls that each want one small statement, sharing one: every item handed in within one tick of
// the event loop, or while the batch before was being run, goes into the next batch (at most
// `maxItems`), and each caller gets its own item's answer. At most `inFlight` batches run at once
// (each on its own connection: while the database runs one, Node prepares the next), so a slow
// database gathers bigger batches and a fast one answers each call almost at once. A batch that
// throws rejects every item in it; the next batch is run as usual.

export interface MicroBatcherOptions<I, O> {
  /** Runs one batch: one answer per item, in the items' order. */
  run(items: readonly I[]): Promise<readonly O[]>;
  /** The most items a batch holds (default 500). */
  maxItems?: number;
  /** Batches run at once (default 2). */
  inFlight?: number;
}

export type MicroBatcher<I, O> = (item: I) => Promise<O>;

interface Waiting<I, O> {
  item: I;
  resolve(answer: O): void;
  reject(error: unknown): void;
}

export function createMicroBatcher<I, O>(options: MicroBatcherOptions<I, O>): MicroBatcher<I, O> {
  const maxItems = Math.max(1, options.maxItems ?? 500);
  let queue: Waiting<I, O>[] = [];
  const inFlight = Math.max(1, options.inFlight ?? 2);
  let running = 0;
  let scheduled = false;

  async function runBatch(): Promise<void> {
    scheduled = false;
    if (running >= inFlight || queue.length === 0) return;
    running++;
    const batch = queue.slice(0, maxItems);
    queue = queue.slice(batch.length);
    try {
      const answers = await options.run(batch.map((w) => w.item));
      if (answers.length !== batch.length)
        throw new Error(`a batch of ${batch.length} got ${answers.length} answers`);
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      running--;
      // What arrived meanwhile goes at once: it has waited a whole batch already.
      if (queue.length > 0) void runBatch();
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running < inFlight && !scheduled) {
        scheduled = true;
        setImmediate(() => void runBatch());
      }
    });
}
