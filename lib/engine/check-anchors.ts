import { loadSuite } from "../config/load-suite";
import type { ConfigIssue, LoadResult } from "../config/types";
import type { EngineDeps, RunOptions } from "./run-suite";
import {
  locateAnchors,
  type AnchorSpot,
  type CriterionSpan,
} from "./trust/calibration/locate-anchors";
import type { CalibrationItem, CalibrationResult } from "./results/trust";
import { runCalibration } from "./run-calibration";
import { DEFAULT_TOLERANCE } from "./trust/calibration/calibration-stats";
import { CALIBRATION_LIMITS, calibrationSizeIssue } from "./trust/calibration/calibration-size";
import type { Probe } from "./trust/calibration/plan-calibration";

// The editor's "Check anchors": grades the calibration anchors of the draft
// (of the criterion under the cursor, or of every criterion) with the judge,
// exactly as `calibrate` does (each anchor with itself left out of the
// prompt), and says where each anchor was typed so the editor can show the
// judged score beside it.

/** An anchor where it was typed, with its verdict as `calibrate` reports an item (with a jury or panel, each judge's reading in `judges`). */
export type CheckedAnchor = AnchorSpot &
  Pick<CalibrationItem, "label" | "judged" | "error" | "outlier" | "reasoning" | "judges">;

export type AnchorCheck =
  | { ok: false; issues: ConfigIssue[] }
  | {
      ok: true;
      /** The criteria that were checked: the one under the cursor, or all that have anchors. */
      scope: { eval: string; criterion: string }[];
      anchors: CheckedAnchor[];
      result: CalibrationResult;
    };

export async function checkAnchors(
  input: {
    text: string;
    file: string;
    line?: number;
    /** An edit's lines (as you type): only the criteria they touch, and none when they touch no criterion with anchors. */
    lines?: { from: number; to: number };
    /** What the check may spend (the editor's cap, less what it has spent). */
    maxCostUsd?: number;
    defaultModel: string;
    toolVersion: string;
    concurrency?: number;
    tolerance?: number;
    /** `text` already loaded (the dashboard loads it on a worker thread, under a time limit). */
    loaded?: LoadResult;
    /** Where the anchors of `text` were typed, already found (the dashboard finds them on a worker thread, with `loaded`). */
    spans?: CriterionSpan[];
    /** Judge calls the check may plan (default: what one request of the dashboard may). */
    maxJudgeCalls?: number;
    /** Which provider serves each judge model (the dashboard's: the server's providers); a model whose provider has no key defers, with the reason. */
    resolveModel?: RunOptions["resolveModel"];
  },
  deps: EngineDeps,
): Promise<AnchorCheck> {
  const loaded = input.loaded ?? loadSuite({ text: input.text, file: input.file });
  if (!loaded.ok) return { ok: false, issues: loaded.issues };
  // An anchor is checked and counted once: a rubric several evals share (a ref, a preset) under the first eval that uses it.
  const seen = new Set<string>();
  const spans = (input.spans ?? locateAnchors({ text: input.text, file: input.file })).filter(
    (s) => {
      const key = `${s.shared ?? `eval:${s.eval}`}\u0000${s.criterion}`;
      if (s.anchors.length === 0 || seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  );
  const { line, lines } = input;
  const under =
    line === undefined ? [] : spans.filter((s) => line >= s.startLine && line <= s.endLine);
  const chosen =
    lines !== undefined
      ? spans.filter((s) => s.startLine <= lines.to && s.endLine >= lines.from)
      : under.length > 0
        ? under
        : spans;
  const scope = chosen.map((s) => ({ eval: s.eval, criterion: s.criterion }));
  const wanted = new Set(scope.map((s) => `${s.eval}\u0000${s.criterion}`));
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE;
  const select = (probe: Probe) =>
    probe.source === "anchor" && wanted.has(`${probe.eval}\u0000${probe.item}`);
  // Posted as you type, and graded in the server's process: bounded before any call.
  const tooBig = calibrationSizeIssue({
    suite: loaded.value,
    select,
    maxJudgeCalls: input.maxJudgeCalls ?? CALIBRATION_LIMITS.request,
    hint: "check one criterion (put the cursor in it), or run rubric-studio calibrate",
  });
  if (tooBig) return { ok: false, issues: [tooBig] };
  const result = await runCalibration(
    {
      suite: loaded.value,
      select,
      defaultModel: input.defaultModel,
      concurrency: input.concurrency ?? 4,
      toolVersion: input.toolVersion,
      tolerance,
      ...(input.maxCostUsd !== undefined ? { maxCostUsd: input.maxCostUsd } : {}),
      ...(input.resolveModel ? { resolveModel: input.resolveModel } : {}),
    },
    deps,
  );
  const anchors = chosen.flatMap((span) => {
    const graded = result.criteria.find((c) => c.eval === span.eval && c.item === span.criterion);
    return span.anchors.flatMap((spot): CheckedAnchor[] => {
      const item = graded?.items.find((i) => i.source === "anchor" && i.id === spot.id);
      return item
        ? [
            {
              ...spot,
              label: item.label,
              judged: item.judged,
              error: item.error,
              outlier: item.outlier,
              reasoning: item.reasoning,
              ...(item.judges ? { judges: item.judges } : {}),
            },
          ]
        : [];
    });
  });
  return { ok: true, scope, anchors, result };
}
