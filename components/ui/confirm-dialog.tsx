"use client";
import { useEffect, useRef, type ReactNode } from "react";

// A modal confirmation on the native <dialog>: focus trapping, Escape and the
// backdrop come from the browser, so there is no focus code to get wrong.
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <div className="dialog-body">
        <h2 id="confirm-title">{props.title}</h2>
        <div className="muted">{props.children}</div>
        {props.error ? (
          <p className="notice notice-error" role="alert">
            {props.error}
          </p>
        ) : null}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button
          type="button"
          className={`btn ${props.danger ? "btn-danger" : "btn-primary"}`}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.busy ? <span className="spinner" aria-hidden="true" /> : null}
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
