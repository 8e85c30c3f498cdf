import type { ReactNode } from "react";

// The three states every view has besides its content. Server and client
// components both use them, so they hold no state of their own.

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="state" role="status">
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

export function ErrorState({
  title = "Something went wrong",
  message,
  action,
}: {
  title?: string;
  message: string;
  action?: ReactNode;
}) {
  return (
    <div className="state" role="alert">
      <h2>{title}</h2>
      <p className="notice notice-error" style={{ display: "inline-block" }}>
        {message}
      </p>
      <div>{action}</div>
    </div>
  );
}

/** The body of a route's `error.tsx` (a client component): what went wrong, and a retry. */
export function RouteError({
  error,
  reset,
  fallback,
}: {
  error: Error;
  reset: () => void;
  fallback: string;
}) {
  return (
    <main className="page">
      <ErrorState
        message={error.message || fallback}
        action={
          <button type="button" className="btn" onClick={reset}>
            Try again
          </button>
        }
      />
    </main>
  );
}

export function LoadingRows({ rows = 3, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div className="stack" aria-busy="true" aria-label={label} style={{ padding: 16 }}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: 18, width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}
