import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FlipsPanel } from "../../../components/authoring/flips-panel";
import type { FlipRow, FlipsPreview } from "../../../components/authoring/flips-types";
import { flipCountsText } from "../../../components/results/flip-counts";
import { countFlipKinds } from "../../../lib/engine/trust/regrade/flip-counts";
import type { FlipKind } from "../../../lib/engine/trust/regrade/flip-kind";

// The editor's flips preview heads its list as the flips page and `rubric-studio regrade` head
// theirs: flips by direction, then what moved without flipping, then what did not change. It
// said "226 flips, 374 unchanged", counting the 46 results whose score moved as unchanged.

const RUN = "0b6f3c1e-4a2d-4c8e-9f10-2a3b4c5d6e7f";
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

function row(kind: FlipRow["kind"], i: number): FlipRow {
  const passed = { status: "passed" as const, score: 0.9, display: "0.90" };
  const failed = { status: "failed" as const, score: 0.4, display: "0.40" };
  return {
    id: `r${i}`,
    name: `eval ${i}`,
    eval: `eval ${i}`,
    cell: "",
    kind,
    flippedCriteria: kind === "criteria" ? ["accurate"] : [],
    previous: kind === "now_pass" ? failed : passed,
    now: kind === "now_fail" ? failed : passed,
    reasons: [],
    href: `/runs/${RUN}/results/r${i}`,
  };
}

function render(kinds: FlipKind[]): string {
  const flips = kinds.flatMap((k, i) =>
    k === "moved" || k === "unchanged" || k === "not_graded" ? [] : [row(k, i)],
  );
  const value: FlipsPreview = {
    source: { runId: RUN, createdAt: "2026-11-20T10:00:00Z", status: "completed", version: 1 },
    compared: kinds.length,
    gone: [],
    added: [],
    unread: [],
    calls: 0,
    reused: kinds.length,
    costUsd: 0,
    unpricedCalls: 0,
    maxCalls: 3000,
    deferred: 0,
    flips,
    counts: countFlipKinds(kinds),
    spentUsd: 0,
  };
  const run = { id: RUN, createdAt: value.source.createdAt, status: "completed", version: 1 };
  return text(
    renderToStaticMarkup(
      createElement(FlipsPanel, {
        runs: [run],
        runId: RUN,
        onRun: () => undefined,
        preview: { busy: false, text: "t", runId: RUN, value },
        current: "t",
        onPreview: () => undefined,
        hydrated: true,
      }),
    ),
  );
}

const times = (kind: FlipKind, n: number): FlipKind[] => Array<FlipKind>(n).fill(kind);

describe("the flips preview's summary", () => {
  it("counts and words the results as the flips page does, moved ones apart from unchanged", () => {
    const kinds = [
      ...times("now_fail", 68),
      ...times("now_pass", 79),
      ...times("criteria", 79),
      ...times("moved", 46),
      ...times("unchanged", 328),
    ];
    const html = render(kinds);
    const page =
      "226 flips: 68 now fail, 79 now pass, 79 with a criterion flipped; 46 moved without flipping; 328 unchanged";
    expect(html).toContain(page);
    expect(flipCountsText(countFlipKinds(kinds))).toBe(page);
    expect(html).not.toContain("374 unchanged");
  });

  it("says nothing flips when only scores moved, and counts every result graded", () => {
    const html = render([...times("moved", 2), ...times("unchanged", 3)]);
    expect(html).toContain("Nothing flips: every one of the 5 results keeps its verdict");
  });
});
