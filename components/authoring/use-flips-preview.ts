"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "./api-client";
import type { FlipsPlan, FlipsPreview, FlipsPreviewLine } from "./flips-types";

// "Flips against run…": which stored run to compare with, what a preview of
// the editor's text would cost (asked again as the text settles), and the
// preview itself, streamed with its progress. A newer preview, or leaving the
// page, aborts the one in flight, and the server stops its calls with it.

/** One of the suite's stored runs, as the picker lists it. */
export interface PreviewRunOption {
  id: string;
  createdAt: string;
  status: string;
  /** The suite version it graded (v1 the oldest). */
  version: number;
  /** A re-grade's source run, else absent. */
  regradeOf?: string;
}

/** Long enough that typing does not ask the server for a plan at each key. */
const PLAN_DELAY_MS = 400;

export interface FlipsPlanState {
  busy: boolean;
  text: string;
  runId: string;
  value?: FlipsPlan;
  error?: string;
}

export interface FlipsPreviewState {
  busy: boolean;
  /** The text and run the preview is for: the panel says when the draft has moved on. */
  text: string;
  runId: string;
  progress?: { done: number; total: number };
  value?: FlipsPreview;
  error?: string;
}

/** The newest run that finished (completed first), which a preview compares against by default. */
export function defaultRunId(runs: readonly PreviewRunOption[]): string | undefined {
  return (
    runs.find((r) => r.status === "completed") ??
    runs.find((r) => r.status !== "queued" && r.status !== "running")
  )?.id;
}

async function readLines(
  response: Response,
  onLine: (line: FlipsPreviewLine) => void,
): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    buffered += decoder.decode(value, { stream: !done });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) onLine(JSON.parse(line) as FlipsPreviewLine);
    if (done) break;
  }
}

export function useFlipsPreview(input: {
  suiteId: string;
  text: string;
  runs: readonly PreviewRunOption[];
  hydrated: boolean;
}) {
  const { suiteId, text, hydrated } = input;
  const [runId, setRunId] = useState<string | undefined>(() => defaultRunId(input.runs));
  const [plan, setPlan] = useState<FlipsPlanState>();
  const [preview, setPreview] = useState<FlipsPreviewState>();
  const textRef = useRef(text);
  textRef.current = text;
  const inFlight = useRef<AbortController | undefined>(undefined);

  // What a preview would pay, asked again once the text (or the run) settles.
  useEffect(() => {
    if (!hydrated || runId === undefined) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setPlan((p) => ({ ...p, busy: true, text, runId }));
      apiFetch<FlipsPlan>(`/api/runs/${runId}/flips-preview`, {
        method: "POST",
        body: { yaml: text, suiteId, plan: true },
        signal: controller.signal,
      })
        .then((result) =>
          setPlan(
            result.ok
              ? { busy: false, text, runId, value: result.value }
              : { busy: false, text, runId, error: result.message },
          ),
        )
        .catch(() => undefined);
    }, PLAN_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, runId, suiteId, hydrated]);

  const start = useCallback(async () => {
    if (runId === undefined) return;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const yaml = textRef.current;
    const base = { text: yaml, runId };
    setPreview({ ...base, busy: true });
    try {
      const response = await fetch(`/api/runs/${runId}/flips-preview`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ yaml, suiteId }),
        signal: controller.signal,
      });
      if (!response.ok) {
        const json = (await response.json().catch(() => undefined)) as
          { error?: { message?: string } } | undefined;
        setPreview({
          ...base,
          busy: false,
          error: json?.error?.message ?? `The server answered ${response.status}.`,
        });
        return;
      }
      let ended = false;
      await readLines(response, (line) => {
        if ("progress" in line) setPreview({ ...base, busy: true, progress: line.progress });
        else if ("preview" in line) {
          ended = true;
          setPreview({ ...base, busy: false, value: line.preview });
        } else {
          ended = true;
          setPreview({ ...base, busy: false, error: line.error.message });
        }
      });
      if (!ended)
        setPreview({ ...base, busy: false, error: "The server stopped before the preview ended." });
    } catch (error) {
      if (controller.signal.aborted) return;
      setPreview({
        ...base,
        busy: false,
        error: `The server could not be reached: ${(error as Error).message}`,
      });
    } finally {
      if (inFlight.current === controller) inFlight.current = undefined;
    }
  }, [runId, suiteId]);

  // Leaving the editor stops the preview: the server makes no call not yet started.
  useEffect(() => () => inFlight.current?.abort(), []);

  // Ctrl/Cmd+Shift+Enter anywhere on the page, the editor included (caught before Monaco inserts a line).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key === "Enter") {
        event.preventDefault();
        event.stopPropagation();
        void start();
      }
    };
    window.addEventListener("keydown", onKey, { capture: true });
    return () => window.removeEventListener("keydown", onKey, { capture: true });
  }, [start]);

  const choose = useCallback((id: string) => {
    inFlight.current?.abort();
    setPreview(undefined);
    setRunId(id);
  }, []);

  return { runId, choose, plan, preview, start };
}
