// Work a handler starts and leaves running after it returns (an answer that
// streams) stops when the browser goes away. A Request's own signal cannot be
// trusted for that: undici's Request follows the server's signal through a
// weak reference, so once the handler has returned and nothing holds the
// Request, garbage collection drops the link and the abort never arrives
// (test/app/api/browser-left.test.ts). The request is held here until the
// work says it is done.

const held = new Set<Request>();

/** Calls `leave` when the browser goes away, until `release()` (call it when the work ends, however it ends). */
export function onBrowserLeave(request: Request, leave: () => void): () => void {
  const signal = request.signal;
  if (signal.aborted) {
    leave();
    return () => undefined;
  }
  const abort = () => leave();
  signal.addEventListener("abort", abort, { once: true });
  held.add(request);
  return () => {
    signal.removeEventListener("abort", abort);
    held.delete(request);
  };
}
