"use client";
import Editor, { type OnMount } from "@monaco-editor/react";
import { useCallback, useEffect, useRef } from "react";
import type * as Monaco from "monaco-editor";
import { setUpMonaco } from "./monaco-setup";
import { anchorMark, anchorScores, anchorTone } from "./anchor-note";
import type { CheckedAnchor, DraftIssue } from "./api-types";

// The suite editor: Monaco with monaco-yaml's schema markers (owner "yaml")
// and the engine's own load-time issues from the validate route (owner
// ENGINE_OWNER), so refs, presets, regexes and the rest show where they are.

export const ENGINE_OWNER = "rubric-studio";
/** The owner of "Check anchors" markers: anchors the judge scored far from their label. */
export const ANCHORS_OWNER = "rubric-studio-anchors";
const monaco = setUpMonaco();

/**
 * The browser tests' handle (STACK.md): markers as Monaco holds them, and a
 * way to replace the text as a paste would. Always present: the tests run the
 * production build, and it exposes nothing the page does not already show.
 */
export interface EditorTestHandle {
  getMarkers(owner?: string): {
    owner: string;
    message: string;
    startLineNumber: number;
    startColumn: number;
    severity: number;
  }[];
  setValue(text: string): void;
  getValue(): string;
  /** Puts the cursor on a line (1-based), as a click there would. */
  setCursorLine(line: number): void;
}
declare global {
  var __rubricStudioEditor: EditorTestHandle | undefined;
}

export interface YamlEditorProps {
  path: string;
  defaultValue: string;
  issues: DraftIssue[];
  onChange(text: string): void;
  onSave(): void;
  /** The last "Check anchors" verdicts, drawn after each anchor's line. */
  anchors?: CheckedAnchor[];
  /** Kept current with the cursor's line, for "Check anchors" of the criterion under it. */
  cursorLine?: { current: number | undefined };
}

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export default function YamlEditor(props: YamlEditorProps) {
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const onSave = useRef(props.onSave);
  onSave.current = props.onSave;
  const cursorLine = useRef(props.cursorLine);
  cursorLine.current = props.cursorLine;
  const decorations = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null);
  const widgets = useRef<Monaco.editor.IContentWidget[]>([]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSave.current());
    decorations.current = editor.createDecorationsCollection();
    editor.onDidChangeCursorPosition((event) => {
      if (cursorLine.current) cursorLine.current.current = event.position.lineNumber;
    });
    globalThis.__rubricStudioEditor = {
      getMarkers: (owner) => monaco.editor.getModelMarkers(owner ? { owner } : {}),
      setValue: (text) => editor.setValue(text),
      getValue: () => editor.getValue(),
      setCursorLine: (line) => editor.setPosition({ lineNumber: line, column: 1 }),
    };
    editor.focus();
    showIssues();
  };

  useEffect(() => () => void (globalThis.__rubricStudioEditor = undefined), []);

  // The engine's issues as markers. Also run once the editor mounts: the
  // first check of a suite opened with errors can land before Monaco has
  // loaded, and its markers must not wait for the next edit.
  const issues = useRef(props.issues);
  issues.current = props.issues;
  const showIssues = useCallback(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const lines = model.getLineCount();
    monaco.editor.setModelMarkers(
      model,
      ENGINE_OWNER,
      issues.current.map((issue) => {
        // The loader locates the start of the offending node; underline to the end of its line.
        const line = Math.min(Math.max(issue.line, 1), lines);
        return {
          severity:
            issue.severity === "error"
              ? monaco.MarkerSeverity.Error
              : monaco.MarkerSeverity.Warning,
          message: issue.message,
          source: "rubric-studio",
          startLineNumber: line,
          startColumn: Math.max(issue.column, 1),
          endLineNumber: line,
          endColumn: model.getLineMaxColumn(line),
        };
      }),
    );
  }, []);
  useEffect(showIssues, [props.issues, showIssues]);

  // Judged against labelled after each checked anchor (a content widget at the
  // end of its last line, its text set as text); an anchor off by more than
  // the tolerance also gets its line tinted and a warning squiggle whose hover
  // is the judge's reasoning.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    const anchors = props.anchors ?? [];
    const lines = model.getLineCount();
    const valid = anchors.filter((a) => a.endLine <= lines);
    for (const widget of widgets.current) editor.removeContentWidget(widget);
    // One widget per line: a preset's anchors were never typed and all sit on its `preset:` line.
    const byLine = new Map<number, typeof valid>();
    for (const a of valid) byLine.set(a.endLine, [...(byLine.get(a.endLine) ?? []), a]);
    widgets.current = [...byLine].map(([line, group], i) => {
      const node = document.createElement("span");
      // Red when one is off; grey when none was read by the judge (no key for its provider): a
      // verdict nobody gave is never drawn as a green "within".
      const tones = new Set(group.map(anchorTone));
      node.className = tones.has("off")
        ? "anchor-inline-off"
        : tones.has("ok")
          ? "anchor-inline"
          : "anchor-inline-unchecked";
      node.textContent = group
        .map(
          (a) =>
            `${group.length > 1 ? `${a.criterion} #${a.id}: ` : ""}${anchorScores(a)}${anchorMark(a)}`,
        )
        .join("  |  ");
      node.title = group.map((a) => a.reasoning).join("\n\n");
      const widget: Monaco.editor.IContentWidget = {
        getId: () => `rubric-studio.anchor.${i}`,
        getDomNode: () => node,
        getPosition: () => ({
          position: { lineNumber: line, column: model.getLineMaxColumn(line) },
          preference: [monaco.editor.ContentWidgetPositionPreference.EXACT],
        }),
      };
      editor.addContentWidget(widget);
      return widget;
    });
    decorations.current?.set(
      valid
        .filter((a) => a.outlier)
        .map((a) => ({
          range: new monaco.Range(a.line, 1, a.endLine, 1),
          options: { isWholeLine: true, className: "anchor-line-off" },
        })),
    );
    monaco.editor.setModelMarkers(
      model,
      ANCHORS_OWNER,
      valid
        .filter((a) => a.outlier)
        .map((a) => ({
          severity: monaco.MarkerSeverity.Warning,
          message: `Anchor off: labelled ${fixed(a.label)}, judged ${fixed(a.judged)} (${a.error === null ? "not graded" : `${a.error > 0 ? "+" : ""}${a.error.toFixed(2)}`}). The judge's reasoning: ${a.reasoning}`,
          source: "check anchors",
          startLineNumber: a.line,
          startColumn: a.column,
          endLineNumber: a.endLine,
          endColumn: model.getLineMaxColumn(a.endLine),
        })),
    );
  }, [props.anchors]);

  return (
    <Editor
      path={props.path}
      defaultLanguage="yaml"
      defaultValue={props.defaultValue}
      theme="vs"
      onMount={onMount}
      onChange={(value) => props.onChange(value ?? "")}
      loading={
        <div className="muted small" style={{ padding: 16 }}>
          Loading the editor…
        </div>
      }
      options={{
        minimap: { enabled: false },
        fontSize: 13,
        tabSize: 2,
        insertSpaces: true,
        scrollBeyondLastLine: false,
        automaticLayout: true,
        renderWhitespace: "boundary",
        quickSuggestions: { other: true, comments: false, strings: true },
        fixedOverflowWidgets: true,
      }}
    />
  );
}
