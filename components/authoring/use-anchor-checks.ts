"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "./api-client";
import type { AnchorCheck } from "./api-types";
import type { AnchorsState, AutoCheckState } from "./anchors-panel";
import { changedLineRange } from "./line-diff";

// "Check anchors", by hand and as you type. By hand: the criterion under the
// cursor, or every criterion. As you type: once an edit settles, the anchors
// of the criteria it touched, re-graded on the server through the judge cache
// (an edit back to text already checked costs nothing), within a spend cap for
// this open editor; past the cap, or switched off, nothing is sent.

/** How long an edit must rest before its criterion is re-graded: long enough not to pay for every keystroke. */
export const AUTO_CHECK_DELAY_MS = 1_200;
export const DEFAULT_SPEND_CAP_USD = 0.1;

interface CheckRequest {
  yaml: string;
  line?: number;
  lines?: { from: number; to: number };
  auto: boolean;
}

/** What the panel says, up front, when the server has no judge key. */
export const NO_JUDGE_KEY =
  "checking needs a judge key on the server (ANTHROPIC_API_KEY, OPENAI_API_KEY or a provider key)";

export function useAnchorChecks(input: {
  suiteName: string;
  text: string;
  savedYaml: string;
  hydrated: boolean;
  cursorLine: { current: number | undefined };
  judgeKey: boolean;
}) {
  const { suiteName, text, hydrated, cursorLine } = input;
  const [anchors, setAnchors] = useState<AnchorsState>({ busy: false });
  // Without a judge key the server cannot check: the switch starts off (and stays so), rather than
  // ticked until the first edit's 503.
  const [auto, setAuto] = useState<AutoCheckState>(() => ({
    on: input.judgeKey,
    capUsd: DEFAULT_SPEND_CAP_USD,
    spentUsd: 0,
    capReached: false,
    ...(input.judgeKey ? {} : { unavailable: NO_JUDGE_KEY }),
  }));
  // The spend as of the last answer, read by requests sent before React re-renders.
  const spent = useRef(0);
  // One check as you type at a time, each given what is left of the cap; an
  // edit that settles meanwhile waits for it (only the newest such edit).
  const inFlight = useRef(false);
  const waiting = useRef<CheckRequest | null>(null);
  const capUsd = useRef(auto.capUsd);
  capUsd.current = auto.capUsd;
  // The text the next settled edit is compared with, to find what it touched.
  const settled = useRef(input.savedYaml);

  const send = useCallback(
    async (request: CheckRequest) => {
      setAnchors((previous) => ({ ...previous, busy: true, error: undefined }));
      const body = {
        yaml: request.yaml,
        file: suiteName,
        ...(request.line !== undefined ? { line: request.line } : {}),
        ...(request.lines ? { lines: request.lines } : {}),
        ...(request.auto ? { maxCostUsd: Math.max(0, capUsd.current - spent.current) } : {}),
      };
      const result = await apiFetch<AnchorCheck>("/api/calibration/check", {
        method: "POST",
        body,
      });
      if (!result.ok) {
        if (!request.auto) return setAnchors({ busy: false, error: result.message });
        // The server cannot check (no judge key, say): stop asking on every edit, and say why.
        setAnchors((previous) => ({ ...previous, busy: false }));
        return setAuto((a) => ({ ...a, on: false, paused: result.message }));
      }
      const check = result.value;
      if (!check.ok) {
        // Half-typed YAML while typing: the editor's markers say what is wrong; keep the last verdicts.
        if (request.auto) return setAnchors((previous) => ({ ...previous, busy: false }));
        return setAnchors({
          busy: false,
          issues: check.issues.filter((i) => i.severity === "error").length || 1,
        });
      }
      spent.current += check.result.costUsd;
      const stoppedByCap = request.auto && (check.result.skipped ?? 0) > 0;
      setAuto((a) => ({
        ...a,
        spentUsd: spent.current,
        capReached: a.capReached || stoppedByCap || spent.current >= a.capUsd,
      }));
      // An edit outside every criterion with anchors graded nothing: the panel keeps what it showed.
      if (request.auto && check.scope.length === 0)
        return setAnchors((previous) => ({ ...previous, busy: false }));
      const scope =
        check.scope.length === 1
          ? `“${check.scope[0]!.criterion}”`
          : `${check.scope.length} criteria`;
      setAnchors({
        busy: false,
        anchors: check.anchors,
        scope,
        text: request.yaml,
        auto: request.auto,
        calls: check.result.judgeCalls,
        reused: check.result.reusedCalls ?? 0,
        costUsd: check.result.costUsd,
      });
    },
    [suiteName],
  );

  const checkByHand = useCallback(
    (yaml: string, all: boolean) => {
      const line = all ? undefined : cursorLine.current;
      void send({ yaml, ...(line !== undefined ? { line } : {}), auto: false });
    },
    [send, cursorLine],
  );

  const sendAuto = useCallback(
    async (request: CheckRequest) => {
      inFlight.current = true;
      for (let next: CheckRequest | null = request; next; next = waiting.current) {
        waiting.current = null;
        if (spent.current >= capUsd.current) {
          setAuto((a) => ({ ...a, capReached: true }));
          break;
        }
        await send(next);
      }
      inFlight.current = false;
    },
    [send],
  );

  useEffect(() => {
    if (!hydrated || !auto.on || auto.capReached) {
      settled.current = text;
      waiting.current = null;
      return;
    }
    const timer = setTimeout(() => {
      const lines = changedLineRange(settled.current, text);
      settled.current = text;
      if (!lines) return;
      if (!inFlight.current) return void sendAuto({ yaml: text, lines, auto: true });
      // Both edits' lines, so the criteria the waiting edit touched are not forgotten.
      const before = waiting.current?.lines;
      waiting.current = {
        yaml: text,
        lines: before
          ? { from: Math.min(before.from, lines.from), to: Math.max(before.to, lines.to) }
          : lines,
        auto: true,
      };
    }, AUTO_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, hydrated, auto.on, auto.capReached, sendAuto]);

  const setAutoOn = useCallback(
    (on: boolean) => setAuto((a) => (a.unavailable ? a : { ...a, on, paused: undefined })),
    [],
  );
  const setCap = useCallback(
    (usd: number) => setAuto((a) => ({ ...a, capUsd: usd, capReached: spent.current >= usd })),
    [],
  );

  return { anchors, auto, checkByHand, setAutoOn, setCap };
}
