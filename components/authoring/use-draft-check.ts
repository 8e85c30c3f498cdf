"use client";
import { useEffect, useState } from "react";
import { apiFetch, type ApiResult } from "./api-client";
import type { DraftCheck } from "./api-types";

// The editor's text checked on the server (`POST /api/validate`): its problems
// located, and its plan, for the markers, the plan panel and the problems
// panel, and again before a save.

/**
 * Long enough to let a burst of typing settle into one request (a newer keystroke aborts the one in
 * flight), short enough that markers follow the keystroke.
 */
const CHECK_DELAY_MS = 60;

/** One check of `yaml`, named as the suite `file` (so its problems are located in it). */
export function checkDraft(input: {
  yaml: string;
  file: string;
  signal?: AbortSignal;
}): Promise<ApiResult<DraftCheck>> {
  return apiFetch<DraftCheck>("/api/validate", {
    method: "POST",
    body: { yaml: input.yaml, file: input.file },
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

/**
 * The text checked as it is typed: debounced, and a newer keystroke aborts the request in flight,
 * so markers never go back to an older text. `checkedText` is the text `check` is for.
 */
export function useDraftCheck(input: { text: string; file: string }) {
  const { text, file } = input;
  const [check, setCheck] = useState<DraftCheck | null>(null);
  const [checkedText, setCheckedText] = useState<string>();
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    setChecking(true);
    const timer = setTimeout(() => {
      checkDraft({ yaml: text, file, signal: controller.signal })
        .then((result) => {
          setChecking(false);
          if (!result.ok) return setCheckError(result.message);
          setCheckError(undefined);
          setCheck(result.value);
          setCheckedText(text);
        })
        .catch(() => undefined);
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, file]);
  return { check, checkedText, checking, checkError };
}
