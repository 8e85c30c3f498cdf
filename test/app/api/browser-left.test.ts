import { describe, expect, it } from "vitest";
// A test may call what a route handler calls; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { onBrowserLeave } from "../../../app/api/browser-left";
import { forceGc } from "../../support/force-gc";

// The route has returned its streamed answer and holds no Request; a garbage
// collection runs; then the browser goes away. The work must still stop.
function startWork(left: AbortSignal) {
  const stop = new AbortController();
  const request = new Request("http://127.0.0.1/api/x", {
    method: "POST",
    body: "{}",
    signal: left,
  });
  return { stop, release: onBrowserLeave(request, () => stop.abort()) };
}

describe("onBrowserLeave", () => {
  it("stops the work when the browser leaves, after the handler returned and a collection ran", async () => {
    const browser = new AbortController();
    const { stop } = startWork(browser.signal);
    await forceGc();
    browser.abort();
    expect(stop.signal.aborted).toBe(true);
  });

  it("lets go once released: a later leave stops nothing", async () => {
    const browser = new AbortController();
    const { stop, release } = startWork(browser.signal);
    release();
    browser.abort();
    expect(stop.signal.aborted).toBe(false);
  });

  it("stops at once for a browser already gone", () => {
    const browser = new AbortController();
    browser.abort();
    expect(startWork(browser.signal).stop.signal.aborted).toBe(true);
  });
});
