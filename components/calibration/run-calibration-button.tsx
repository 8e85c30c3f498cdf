"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "../authoring/api-client";
import type { CalibrationStarted } from "../authoring/api-types";

// Calibrates the suite's newest saved version on the server (with the
// server's judge key, which never reaches the browser), then redraws the page.
export function RunCalibrationButton({ suiteId, anchors }: { suiteId: string; anchors?: number }) {
  const router = useRouter();
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const run = async () => {
    setState({ busy: true });
    const result = await apiFetch<CalibrationStarted>(`/api/suites/${suiteId}/calibrations`, {
      method: "POST",
    });
    if (!result.ok) return setState({ busy: false, error: result.message });
    setState({ busy: false });
    router.refresh();
  };
  return (
    <div className="row" style={{ flexWrap: "wrap" }}>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => void run()}
        disabled={state.busy}
      >
        {state.busy ? <span className="spinner" aria-hidden="true" /> : null}
        {state.busy ? "Calibrating…" : "Run calibration"}
      </button>
      {state.busy ? (
        <span className="muted small" role="status">
          The judge is grading {anchors ? `${anchors} labelled items` : "every anchor"}, each with
          itself left out of the prompt.
        </span>
      ) : null}
      {state.error ? (
        <span className="notice notice-error" role="alert">
          {state.error}
        </span>
      ) : null}
    </div>
  );
}
