"use client";
import { ErrorState } from "@/components/ui/states";

export default function CalibrationError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <main className="page">
      <ErrorState
        message={error.message || "The calibration could not be loaded."}
        action={
          <button type="button" className="btn" onClick={reset}>
            Try again
          </button>
        }
      />
    </main>
  );
}
