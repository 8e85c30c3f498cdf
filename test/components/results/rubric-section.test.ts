import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RubricSection } from "../../../components/results/rubric-section";

// A dashboard walk: a deferred result's page had no Rubric section, so its criterion appeared
// nowhere (a graded result lists its criteria with their verdicts).

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&");
const render = (rubric: Parameters<typeof RubricSection>[0]["rubric"]) =>
  text(renderToStaticMarkup(createElement(RubricSection, { rubric })));

describe("the result page's Rubric section", () => {
  it("lists a deferred result's criteria, said to be ungraded", () => {
    const shown = render({
      kind: "criteria",
      source: { type: "inline" },
      criteria: [{ name: "right number", description: "Gives the right number." }],
    });
    expect(shown).toContain("Rubric");
    expect(shown).toContain("right number — Gives the right number.");
    expect(shown).toContain("Not graded");
  });

  it("shows a free-form rubric's text, and nothing when the result stores neither", () => {
    expect(render({ kind: "freeform", source: { type: "inline" }, text: "Accurate." })).toBe(
      "RubricAccurate.",
    );
    expect(render({ kind: "criteria", source: { type: "inline" } })).toBe("");
  });
});
