import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// pglite-socket 0.2.17 serves many connections from one PGlite session and
// queues their protocol messages one by one. It keeps a connection's messages
// together only inside a transaction, so two connections' extended-protocol
// batches (Parse, Bind, Execute ... Sync) interleave, and the second Parse
// replaces the first's unnamed statement: "unnamed prepared statement does
// not exist" under any concurrent use (a pool, or the dashboard and a CLI).
// This replaces the queue's scheduler with one that also keeps a connection's
// batch together until its Sync (or a simple Query) has run.

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/** Whether a complete message ends what its connection asked for (so another connection may go next). */
function endsBatch(message: Uint8Array): boolean {
  const type = message[0];
  // Startup, SSL and cancel packets have no type byte: they start with a length whose first byte is 0.
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}

export function serializeExtendedProtocol(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let midBatch = false;

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    // A connection that went away mid-batch must not hold the database.
    if (queue.lastHandlerId === handlerId) midBatch = false;
    clear(handlerId);
  };

  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const pinned =
          (midBatch || this.db.isInTransaction()) && this.lastHandlerId !== null
            ? this.lastHandlerId
            : null;
        const index =
          pinned === null ? 0 : this.queue.findIndex((item) => item.handlerId === pinned);
        // The pinned connection has not sent its next message yet: wait for it.
        if (index === -1) break;
        const [item] = this.queue.splice(index, 1);
        if (!item) break;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          midBatch = false;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        midBatch = !endsBatch(item.message);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);
}
