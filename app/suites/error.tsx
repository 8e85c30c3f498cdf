"use client";
import { ErrorState } from "../../components/ui/states";

export default function SuitesError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <main className="page">
      <ErrorState
        message={error.message || "The suites could not be loaded."}
        action={
          <button type="button" className="btn" onClick={reset}>
            Try again
          </button>
        }
      />
    </main>
  );
}
