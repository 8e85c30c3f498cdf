import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { historyCrumb, SuiteCrumbs } from "../../../components/results/suite-crumbs";

// The suite pages (history, diff, calibration) show one breadcrumb trail
// starting "Suites / <suite>", not "Runs / <suite>" on one and "Suites" on another.

const text = (html: string) => html.replace(/<[^>]+>/g, "");
const page = (name: string) =>
  readFileSync(join(__dirname, "../../../app/suites/[id]", name, "page.tsx"), "utf8");

describe("the suite pages' breadcrumbs", () => {
  it("reads Suites / <suite> / history on the history page and ... / history / diff on the diff page", () => {
    const history = renderToStaticMarkup(
      createElement(SuiteCrumbs, {
        suiteId: "s1",
        suiteName: "support",
        trail: [{ label: "history" }],
      }),
    );
    const diff = renderToStaticMarkup(
      createElement(SuiteCrumbs, {
        suiteId: "s1",
        suiteName: "support",
        trail: [historyCrumb("s1"), { label: "diff" }],
      }),
    );
    expect(text(history)).toBe("Suites / support / history");
    expect(text(diff)).toBe("Suites / support / history / diff");
    expect(history).toContain('href="/suites"');
    expect(diff).toContain('href="/suites/s1/runs"');
  });

  it("is the one trail every suite page renders", () => {
    for (const name of ["runs", "diff", "calibration"]) {
      const source = page(name);
      expect(source, name).toContain("<SuiteCrumbs");
      expect(source, name).not.toContain('<Link href="/runs">Runs</Link>');
    }
  });
});
