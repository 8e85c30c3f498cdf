"use client";
import Editor, { type OnMount } from "@monaco-editor/react";
import { useEffect, useRef } from "react";
import type * as Monaco from "monaco-editor";
import { setUpMonaco } from "./monaco-setup";
import type { DraftIssue } from "./api-types";

// The suite editor: Monaco with monaco-yaml's schema markers (owner "yaml")
// and the engine's own load-time issues from the validate route (owner
// ENGINE_OWNER), so refs, presets, regexes and the rest show where they are.

export const ENGINE_OWNER = "rubric-studio";
const monaco = setUpMonaco();

/**
 * The browser tests' handle (STACK.md): markers as Monaco holds them, and a
 * way to replace the text as a paste would. Always present: the tests run the
 * production build, and it exposes nothing the page does not already show.
 */
export interface EditorTestHandle {
  getMarkers(owner?: string): { owner: string; message: string; startLineNumber: number; startColumn: number; severity: number }[];
  setValue(text: string): void;
  getValue(): string;
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
}

export default function YamlEditor(props: YamlEditorProps) {
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const onSave = useRef(props.onSave);
  onSave.current = props.onSave;

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => onSave.current());
    globalThis.__rubricStudioEditor = {
      getMarkers: (owner) => monaco.editor.getModelMarkers(owner ? { owner } : {}),
      setValue: (text) => editor.setValue(text),
      getValue: () => editor.getValue(),
    };
    editor.focus();
  };

  useEffect(() => () => void (globalThis.__rubricStudioEditor = undefined), []);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const lines = model.getLineCount();
    monaco.editor.setModelMarkers(
      model,
      ENGINE_OWNER,
      props.issues.map((issue) => {
        // The loader locates the start of the offending node; underline to the end of its line.
        const line = Math.min(Math.max(issue.line, 1), lines);
        return {
          severity: issue.severity === "error" ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
          message: issue.message,
          source: "rubric-studio",
          startLineNumber: line,
          startColumn: Math.max(issue.column, 1),
          endLineNumber: line,
          endColumn: model.getLineMaxColumn(line),
        };
      }),
    );
  }, [props.issues]);

  return (
    <Editor
      path={props.path}
      defaultLanguage="yaml"
      defaultValue={props.defaultValue}
      theme="vs"
      onMount={onMount}
      onChange={(value) => props.onChange(value ?? "")}
      loading={<div className="muted small" style={{ padding: 16 }}>Loading the editor…</div>}
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
