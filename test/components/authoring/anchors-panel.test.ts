import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnchorsPanel, type AutoCheckState } from "../../../components/authoring/anchors-panel";
import {
  anchorMark,
  anchorScores,
  anchorsSummary,
  anchorTone,
} from "../../../components/authoring/anchor-note";
import { NO_JUDGE_KEY, useAnchorChecks } from "../../../components/authoring/use-anchor-checks";
import { JudgeReadings } from "../../../components/calibration/judge-readings";
import type { CheckedAnchor } from "../../../components/authoring/api-types";

// New-user walk, items 4 and 5: one wording for a jury's mean ("jurors", as
// the result pages say) and one order for an anchor's scores, in the panel
// and inline in the editor; and no ticked "Check as you type" on a server
// that has no judge key.

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
const noop = () => undefined;
const jury = [1, 2, 3].map((n) => ({
  judge: `claude-sonnet-4-6 #${n}`,
  score: 0.9,
  reasoning: "Quotes the window.",
}));
const anchor: CheckedAnchor = {
  eval: "support",
  criterion: "accurate",
  id: "1",
  line: 9,
  column: 9,
  endLine: 9,
  endColumn: 30,
  label: 1,
  judged: 0.9,
  error: -0.1,
  outlier: false,
  reasoning: "",
  judges: jury,
};
const auto = (extra: Partial<AutoCheckState> = {}): AutoCheckState => ({
  on: true,
  capUsd: 0.1,
  spentUsd: 0,
  capReached: false,
  ...extra,
});
const panel = (a: AutoCheckState) =>
  renderToStaticMarkup(
    createElement(AnchorsPanel, {
      state: { busy: false, anchors: [anchor], text: "x", scope: "all criteria" },
      current: "x",
      onCheck: noop,
      auto: a,
      onAuto: noop,
      onCap: noop,
    }),
  );

describe("a jury's reading of an anchor", () => {
  it("says 'mean of 3 jurors', as the result pages do, not 'judges'", () => {
    const shown = text(
      renderToStaticMarkup(createElement(JudgeReadings, { judges: jury, judged: 0.9 })),
    );
    expect(shown).toContain("mean of 3 jurors: 0.90");
    expect(shown).not.toContain("judges");
  });

  it("says 'models' for a panel", () => {
    const panelJudges = [
      { judge: "claude-sonnet-4-6", score: 1, reasoning: "" },
      { judge: "gpt-4o", score: 0.8, reasoning: "" },
    ];
    expect(
      text(
        renderToStaticMarkup(createElement(JudgeReadings, { judges: panelJudges, judged: 0.9 })),
      ),
    ).toContain("mean of 2 models: 0.90");
  });
});

describe("an anchor's scores", () => {
  it("read labelled, then judged, in the panel and the editor's inline note alike", () => {
    expect(anchorScores(anchor)).toBe("labelled 1.00 · judged 0.90");
    expect(text(panel(auto()))).toContain("labelled 1.00 · judged 0.90");
  });
});

describe("checking as you type on a server without a judge key", () => {
  it("is off and disabled up front, and says why", () => {
    const html = panel(auto({ on: false, unavailable: NO_JUDGE_KEY }));
    expect(text(html)).toContain(
      "Checking needs a judge key on the server (ANTHROPIC_API_KEY, OPENAI_API_KEY or a provider key).",
    );
    const toggle = html.match(/<input[^>]*data-testid="anchors-auto"[^>]*>/)![0];
    expect(toggle).toContain("disabled");
    expect(toggle).not.toMatch(/checked/);
  });

  it("stays ticked and enabled with a key", () => {
    const toggle = panel(auto()).match(/<input[^>]*data-testid="anchors-auto"[^>]*>/)![0];
    expect(toggle).toMatch(/checked/);
    expect(toggle).not.toContain("disabled");
  });
});

describe("the editor's anchor checks, as the page starts them", () => {
  function Editor({ judgeKey }: { judgeKey: boolean }) {
    const checks = useAnchorChecks({
      suiteName: "s",
      text: "x",
      savedYaml: "x",
      hydrated: true,
      cursorLine: { current: undefined },
      judgeKey,
    });
    return createElement(AnchorsPanel, {
      state: checks.anchors,
      current: "x",
      onCheck: noop,
      auto: checks.auto,
      onAuto: checks.setAutoOn,
      onCap: checks.setCap,
    });
  }

  it("start off, with the reason, when the server has no key (before any edit's 503)", () => {
    const html = renderToStaticMarkup(createElement(Editor, { judgeKey: false }));
    expect(text(html)).toContain(
      "Checking needs a judge key on the server (ANTHROPIC_API_KEY, OPENAI_API_KEY or a provider key).",
    );
    expect(html.match(/<input[^>]*data-testid="anchors-auto"[^>]*>/)![0]).toContain("disabled");
  });

  it("start on when it has one", () => {
    const html = renderToStaticMarkup(createElement(Editor, { judgeKey: true }));
    expect(text(html)).not.toContain("ANTHROPIC_API_KEY");
  });
});

// A walk's finding: with a judge model whose provider has no key on the server, every anchor came
// back ungraded, and the panel said "all within ±0.25 of their labels" over anchors the judge
// never read, each with the whole "deferred: no key for provider …" under it.
describe("anchors the judge could not read", () => {
  const reason = 'deferred: no key for provider "openai": set OPENAI_API_KEY to run it';
  const unchecked: CheckedAnchor = {
    ...anchor,
    id: "2",
    judged: null,
    error: null,
    outlier: false,
    reasoning: reason,
    judges: undefined,
  };
  const shown = (anchors: CheckedAnchor[]) =>
    text(
      renderToStaticMarkup(
        createElement(AnchorsPanel, {
          state: { busy: false, anchors, text: "x", scope: "all criteria" },
          current: "x",
          onCheck: noop,
          auto: auto(),
          onAuto: noop,
          onCap: noop,
        }),
      ),
    );

  it("are not 'within' their labels: none checked, the reason said once", () => {
    const html = shown([unchecked, { ...unchecked, id: "3" }]);
    expect(html).toContain(
      '2 anchors of all criteria: none checked: no key for provider "openai": set OPENAI_API_KEY to run it.',
    );
    expect(html).not.toContain("within");
    expect(html.match(/OPENAI_API_KEY/g)).toHaveLength(1);
    expect(html.match(/not checked/g)).toHaveLength(2);
  });

  it("are drawn grey, not with the green of an anchor within its label, in the panel and the editor's note", () => {
    const html = renderToStaticMarkup(
      createElement(AnchorsPanel, {
        state: { busy: false, anchors: [anchor, unchecked], text: "x", scope: "all criteria" },
        current: "x",
        onCheck: noop,
        auto: auto(),
        onAuto: noop,
        onCap: noop,
      }),
    );
    const items = html.match(/<li[^>]*data-testid="anchor-result"[^>]*>/g)!;
    expect(items).toHaveLength(2);
    expect(items[0]).not.toContain("class=");
    expect(items[1]).toContain('class="anchor-unchecked"');
    expect(anchorTone(unchecked)).toBe("unchecked");
    expect(`${anchorScores(unchecked)}${anchorMark(unchecked)}`).toBe(
      "labelled 1.00 · judged — · not checked",
    );
    expect(anchorTone({ ...anchor, outlier: true })).toBe("off");
  });

  it("are counted apart from the checked ones", () => {
    expect(shown([anchor, unchecked])).toContain(
      '2 anchors of all criteria: the 1 checked all within ±0.25 of their labels; 1 not checked: no key for provider "openai"',
    );
    expect(shown([{ ...anchor, judged: 0.5, outlier: true }, unchecked])).toContain(
      "1 of the 1 checked off by more than ±0.25; 1 not checked",
    );
    expect(anchorsSummary([anchor]).text).toBe("all within ±0.25 of their labels.");
  });
});
