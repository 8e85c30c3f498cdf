import * as z from "zod";
import type { FlipsPreview } from "../../lib/engine/results/flips-preview-types";
import { SUITE_YAML } from "./api-types";

// The editor's "Flips against run…" (POST /api/runs/<id>/flips-preview):
// the editor's unsaved text and the suite it is the text of; `plan: true`
// asks only what the preview would cost (read from the judge cache, no call).
// A preview's answer is a stream of JSON lines: `{ progress: { done, total } }`
// as results are graded, then `{ preview }` or `{ error: { code, message } }`.

export const FlipsPreviewBody = z.object({
  yaml: SUITE_YAML,
  suiteId: z.string().max(100),
  plan: z.boolean().optional(),
});

export type {
  FlipRow,
  FlipsPlan,
  FlipsPreview,
  PreviewSource,
} from "../../lib/engine/results/flips-preview-types";

export type FlipsPreviewLine =
  | { progress: { done: number; total: number } }
  | { preview: FlipsPreview }
  | { error: { code: string; message: string } };
