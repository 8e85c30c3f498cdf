"use client";
import { useEffect, useRef, useState } from "react";

// The run page's live progress: a server-sent event stream of snapshots. When
// the server refuses the stream (too many open from this address, for this run
// or in all: a 429) or it breaks for good, EventSource only says "error", so
// the page asks once what happened, says so, keeps itself fresh by reloading
// its data, and tries the stream again a little later.

/** How long a refused or broken stream waits before it is opened again. */
const RETRY_MS = 15_000;
/** How often the page reloads its data while it has no stream. */
const POLL_MS = 5_000;

export function useRunStream<T>(input: {
  runId: string;
  active: boolean;
  onProgress: (snapshot: T) => void;
  onEnd: () => void;
  /** Reload the page's data (router.refresh), while there is no stream. */
  onPoll: () => void;
}): string | undefined {
  const { runId, active } = input;
  const [note, setNote] = useState<string>();
  // The latest handlers, so that the stream is not reopened each time they change.
  const handlers = useRef(input);
  useEffect(() => {
    handlers.current = input;
  });

  useEffect(() => {
    if (!active) return;
    const url = `/api/runs/${runId}/events`;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    let stopped = false;

    const open = () => {
      clearInterval(poll);
      source = new EventSource(url);
      source.addEventListener("progress", (event) => {
        setNote(undefined);
        handlers.current.onProgress(JSON.parse((event as MessageEvent<string>).data) as T);
      });
      source.addEventListener("problem", (event) => {
        const { message } = JSON.parse((event as MessageEvent<string>).data) as { message: string };
        setNote(`Live progress could not be read (${message}); it tries again every half second.`);
      });
      source.addEventListener("end", () => {
        source?.close();
        handlers.current.onEnd();
      });
      source.addEventListener("error", () => {
        // A dropped connection is reopened by the browser itself; a refused one is closed for good.
        if (source?.readyState !== EventSource.CLOSED) return;
        source.close();
        void explain();
      });
    };

    const explain = async () => {
      const controller = new AbortController();
      const response = await fetch(url, { signal: controller.signal }).catch(() => undefined);
      if (response?.ok) {
        // Granted this time (a place came free): let go of it at once, the stream takes it.
        controller.abort();
        if (!stopped) retry = setTimeout(open, 1_000);
        return;
      }
      let why = response ? `the server answered ${response.status}` : "the server did not answer";
      if (response) {
        const body = (await response.json().catch(() => undefined)) as
          { error?: { message?: string } } | undefined;
        if (body?.error?.message) why = body.error.message;
      }
      if (stopped) return;
      setNote(
        `Live progress is paused: ${why.replace(/\.$/, "")}. The page reloads its figures every ${POLL_MS / 1000} s and tries the live stream again in ${RETRY_MS / 1000} s.`,
      );
      poll = setInterval(() => handlers.current.onPoll(), POLL_MS);
      retry = setTimeout(open, RETRY_MS);
    };

    open();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retry);
      clearInterval(poll);
    };
  }, [runId, active]);

  return active ? note : undefined;
}
