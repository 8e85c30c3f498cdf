"use client";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "./api-client";
import type { RunStarted, SaveResult } from "./api-types";
import { checkDraft, useDraftCheck } from "./use-draft-check";
import { AnchorsPanel } from "./anchors-panel";
import { useAnchorChecks } from "./use-anchor-checks";
import { IssuesPanel, PlanPanel } from "./plan-panel";
import { VersionsPanel } from "./versions-panel";
import { FlipsSection } from "./flips-panel";
import type { PreviewRunOption } from "./use-flips-preview";
import { plural } from "@/lib/engine/results/format-score";
import { suiteFileName, suiteYamlUrl } from "./suite-file";
import { runAction, saveRefusal } from "./run-action";

// Monaco touches window and workers at import time: client only.
const YamlEditor = dynamic(() => import("./yaml-editor"), {
  ssr: false,
  loading: () => (
    <div className="muted small" style={{ padding: 16 }}>
      Loading the editor…
    </div>
  ),
});

export interface SuiteWorkspaceProps {
  suite: { id: string; name: string };
  /** The newest saved version's text ("" when the suite has none). */
  savedYaml: string;
  /** Whether the server has a judge key: without one, checking anchors is off from the start, and says why. */
  judgeKey: boolean;
  /** The suite's stored runs, newest first: "Flips against run…" compares the text with one. */
  runs?: PreviewRunOption[];
}

export function SuiteWorkspace({ suite, savedYaml, judgeKey, runs = [] }: SuiteWorkspaceProps) {
  const [text, setText] = useState(savedYaml);
  const [saved, setSaved] = useState(savedYaml);
  const [saveState, setSaveState] = useState<{ busy: boolean; message?: string; error?: string }>({
    busy: false,
  });
  const [versionsKey, setVersionsKey] = useState(0);
  const [runState, setRunState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  // "Run as batch": the server's workers grade the run through Message Batches.
  const [asBatch, setAsBatch] = useState(false);
  const router = useRouter();
  const textRef = useRef(text);
  textRef.current = text;
  const cursorLine = useRef<number | undefined>(undefined);
  // The server renders the buttons disabled: a click before the page's script runs would do nothing.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // Debounced validation; a newer keystroke aborts the request in flight so
  // markers never go back to an older text.
  const { check, checkedText, checking, checkError } = useDraftCheck({ text, file: suite.name });

  // Save (the button and Ctrl/Cmd+S alike) keeps only text that loads: text that does not is refused with its located errors, as Run refuses it.
  const save = useCallback(async () => {
    const yaml = textRef.current;
    setSaveState({ busy: true });
    const checked = await checkDraft({ yaml, file: suite.name });
    if (!checked.ok) return setSaveState({ busy: false, error: checked.message });
    const refused = saveRefusal(checked.value.issues);
    if (refused) return setSaveState({ busy: false, error: refused });
    const result = await apiFetch<SaveResult>(`/api/suites/${suite.id}/versions`, {
      method: "POST",
      body: { yaml },
    });
    if (!result.ok) return setSaveState({ busy: false, error: result.message });
    setSaved(yaml);
    setSaveState({
      busy: false,
      message: result.value.created
        ? "Saved as a new version."
        : "No changes since the last version.",
    });
    setVersionsKey((k) => k + 1);
  }, [suite.id, suite.name]);

  // A refusal to save is about the text it was for: an edit clears it.
  useEffect(() => setSaveState((s) => (s.error ? { busy: false } : s)), [text]);

  // Run grades the editor's text: unsaved text is saved as a new version
  // first (the server saves it once it loads; unchanged text is not saved
  // twice), text that does not load is refused with the reason. The server
  // queues it (its workers hold the judge key), then the run's page opens.
  const action = runAction({ text, saved, check, checkedText });
  // A refusal (or a failed run) is about the text it was for: an edit clears it.
  useEffect(() => setRunState((s) => (s.error ? { busy: false } : s)), [text]);
  const run = useCallback(async () => {
    if (action.kind === "refused") return setRunState({ busy: false, error: action.reason });
    const yaml = textRef.current;
    setRunState({ busy: true });
    const result = await apiFetch<RunStarted>(`/api/suites/${suite.id}/runs`, {
      method: "POST",
      body: { yaml, ...(asBatch ? { batch: true } : {}) },
    });
    if (!result.ok) return setRunState({ busy: false, error: result.message });
    if (action.saves) {
      setSaved(yaml);
      setVersionsKey((k) => k + 1);
    }
    router.push(`/runs/${result.value.runId}?watch=1`);
  }, [suite.id, action, router, asBatch]);

  // Check anchors (by hand, and as you type) grades the draft's anchors on
  // the server (its judge, its key). The editor shows the verdicts only while
  // the text is the one they are for; the panel keeps them, marked as for an
  // earlier draft.
  const { anchors, auto, checkByHand, setAutoOn, setCap } = useAnchorChecks({
    suiteName: suite.name,
    text,
    savedYaml,
    hydrated,
    cursorLine,
    judgeKey,
  });

  // Ctrl/Cmd+S anywhere on the page (the editor binds it too, while focused).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [save]);

  // Leaving with unsaved changes asks first.
  const dirty = text !== saved;
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", onLeave);
    return () => window.removeEventListener("beforeunload", onLeave);
  }, [dirty]);

  const errors = check?.issues.filter((i) => i.severity === "error").length ?? 0;
  const flips = <FlipsSection suiteId={suite.id} text={text} runs={runs} hydrated={hydrated} />;
  return (
    <main className="page-wide">
      <div className="page-header" style={{ marginBottom: 12 }}>
        <div style={{ minWidth: 0 }}>
          <div className="breadcrumb">
            <Link href="/suites">Suites</Link> /{" "}
            <Link href={`/suites/${suite.id}/runs`}>History</Link> ·{" "}
            <Link href={`/suites/${suite.id}/calibration`}>Calibration</Link> ·{" "}
            <Link href={`/suites/${suite.id}/review`} data-testid="review-link">
              Review
            </Link>
          </div>
          <h1 style={{ wordBreak: "break-word" }}>{suite.name}</h1>
        </div>
        <div className="row">
          {saveState.error ? (
            <span className="notice notice-error" role="alert" data-testid="save-error">
              {saveState.error}
            </span>
          ) : saveState.message && !dirty ? (
            <span className="muted small" role="status">
              {saveState.message}
            </span>
          ) : null}
          {runState.error ? (
            <span className="notice notice-error" role="alert">
              {runState.error}
            </span>
          ) : null}
          {dirty ? <span className="badge badge-warning">Unsaved changes</span> : null}
          <a
            className="btn"
            href={suiteYamlUrl(suite.id)}
            download={suiteFileName(suite.name)}
            title="Download the saved version's YAML (save first to include your changes)"
            data-testid="download-yaml"
          >
            Download
          </a>
          <label
            className="small"
            title="Message Batches: every judge call at half price; results may take up to 24 hours"
          >
            <input
              type="checkbox"
              checked={asBatch}
              onChange={(event) => setAsBatch(event.target.checked)}
              data-testid="run-as-batch"
            />{" "}
            Run as batch: half price, may take up to 24 h
          </label>
          <button
            type="button"
            className="btn"
            onClick={() => void run()}
            disabled={!hydrated || runState.busy}
            title={action.title}
            data-testid="run-button"
          >
            {runState.busy ? <span className="spinner" aria-hidden="true" /> : null}
            {action.label}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void save()}
            disabled={!hydrated || saveState.busy}
            title="Save a version (Ctrl/Cmd+S)"
          >
            {saveState.busy ? <span className="spinner" aria-hidden="true" /> : null}
            Save version
          </button>
        </div>
      </div>
      <div className="workspace">
        <div className="editor-frame">
          <div className="editor-host" data-testid="editor">
            <YamlEditor
              path={`suites/${suite.id}.yaml`}
              defaultValue={savedYaml}
              issues={check?.issues ?? []}
              onChange={setText}
              onSave={() => void save()}
              anchors={anchors.text === text ? anchors.anchors : undefined}
              cursorLine={cursorLine}
            />
          </div>
          <div className="editor-status">
            <span>{plural(text.split("\n").length, "line")}</span>
            <span>
              {check === null
                ? "checking…"
                : errors
                  ? `${errors} error${errors === 1 ? "" : "s"}`
                  : "valid"}
            </span>
            <span className="spacer" />
            <span>
              <kbd>Ctrl</kbd>+<kbd>Space</kbd> completes · hover for docs · <kbd>Ctrl</kbd>+
              <kbd>S</kbd> saves
            </span>
          </div>
        </div>
        <aside className="side">
          <PlanPanel check={check} checking={checking} error={checkError} />
          <IssuesPanel check={check} />
          {/* Before saving an edit: which of a stored run's verdicts it flips (under the plan and the problems, which every keystroke changes; before the anchors when there is a run to compare with). */}
          {runs.length > 0 ? flips : null}
          <AnchorsPanel
            state={anchors}
            current={text}
            onCheck={(all) => checkByHand(textRef.current, all)}
            auto={auto}
            onAuto={setAutoOn}
            onCap={setCap}
          />
          {runs.length === 0 ? flips : null}
          <VersionsPanel
            suiteId={suite.id}
            fileName={suiteFileName(suite.name)}
            refreshKey={versionsKey}
          />
        </aside>
      </div>
    </main>
  );
}
