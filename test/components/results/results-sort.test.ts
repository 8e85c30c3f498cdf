import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseTableQuery, queryHref, SORT_KEYS } from "../../../components/results/results-query";
import { ResultsFilter } from "../../../components/results/results-filter";

// The run page's `?sort=`: the keys the README lists (name, status, score,
// cost, latency) sort; an unknown key falls back to name and the page says so.

describe("the results table's sort in the URL", () => {
  it("takes the README's keys: ?sort=cost and ?sort=latency sort, they are not ignored", () => {
    expect(SORT_KEYS).toEqual(["name", "status", "score", "cost", "latency"]);
    expect(parseTableQuery({ sort: "cost", dir: "desc" })).toMatchObject({
      sort: "cost",
      dir: "desc",
    });
    expect(parseTableQuery({ sort: "latency" }).sort).toBe("latency");
    expect(parseTableQuery({ sort: "cost" }).unknownSort).toBeUndefined();
    // Links shared before keep working.
    expect(parseTableQuery({ sort: "costUsd" })).toMatchObject({ sort: "cost" });
    expect(parseTableQuery({ sort: "latencyMs" }).unknownSort).toBeUndefined();
    expect(queryHref("r1", parseTableQuery({}), { sort: "cost", dir: "desc" })).toBe(
      "/runs/r1?sort=cost&dir=desc#results",
    );
  });

  it("an unknown key falls back to name, visibly", () => {
    const query = parseTableQuery({ sort: "price" });
    expect(query).toMatchObject({ sort: "name", unknownSort: "price" });
    const html = renderToStaticMarkup(createElement(ResultsFilter, { runId: "r1", query }));
    expect(html.replace(/<[^>]+>/g, "")).toContain(
      "No sort “price”: sorted by name. The table sorts by name, status, score, cost, latency.",
    );
    expect(
      renderToStaticMarkup(
        createElement(ResultsFilter, { runId: "r1", query: parseTableQuery({ sort: "score" }) }),
      ),
    ).not.toContain("unknown-sort");
  });
});
