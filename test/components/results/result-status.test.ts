import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResultStatus } from "../../../components/results/result-status";
import { badgeReason } from "../../../components/results/status-badge";

// The result page's status line (hw7a): a deferred result's cause is said once, beside its badge
// (as the run page's table says it), not again on the line below.

const text = (html: string) => html.replace(/<[^>]+>/g, "");
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("a result page's status line", () => {
  it("says a deferred result's cause once, beside the badge", () => {
    const cause = "no judge key: set ANTHROPIC_API_KEY to grade for real";
    const html = renderToStaticMarkup(
      createElement(ResultStatus, {
        result: { status: "deferred", reason: `deferred: ${cause}`, note: cause },
      }),
    );
    expect(count(text(html), cause)).toBe(1);
    // The badge says "deferred"; the reason beside it does not say it again (hwalk8).
    expect(count(text(html), "deferred")).toBe(1);
    expect(text(html)).toBe(`deferred ${cause}`);
    expect(html).toContain('data-testid="result-reason"');
    expect(html).not.toContain('data-testid="result-note"');
  });

  it("keeps a note that says more than the reason", () => {
    const html = renderToStaticMarkup(
      createElement(ResultStatus, {
        result: {
          status: "deferred",
          reason: "deferred: server unreachable",
          note: "server calendar could not start: exit 1; stderr: boom",
        },
      }),
    );
    expect(text(html)).toContain("deferred server unreachable");
    expect(text(html)).not.toContain("deferred: ");
    expect(text(html)).toContain("server calendar could not start: exit 1; stderr: boom");
  });

  it("says the run table's reason beside its badge the same way", () => {
    expect(badgeReason({ status: "deferred", reason: "deferred: no judge key" })).toBe(
      "no judge key",
    );
    expect(badgeReason({ status: "failed", reason: "deferred: quoted" })).toBe("deferred: quoted");
    expect(badgeReason({ status: "passed", reason: "score 0.9 ≥ 0.8" })).toBe("score 0.9 ≥ 0.8");
  });
});
