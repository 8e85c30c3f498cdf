"use client";

import { useState } from "react";

// Copies a text (a command) to the clipboard. The text is also on the page
// as selectable text, so a browser that refuses clipboard access loses nothing.
export function CopyButton({
  text,
  className,
  label = "Copy",
}: {
  text: string;
  className?: string;
  label?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      className={className}
      aria-label={`${label}: ${text}`}
      onClick={() => {
        navigator.clipboard?.writeText(text).then(
          () => setState("copied"),
          () => setState("failed"),
        ) ?? setState("failed");
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label}
    </button>
  );
}
