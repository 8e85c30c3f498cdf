import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseTableQuery, queryHref, SORT_KEYS } from "../../../components/results/results-query";
import { ResultsFilter } from "../../../components/results/results-filter";

// The run page's `?sort=`: the keys the README lists (order, name, status, score,
// cost, latency) sort; the default, and an unknown key's fallback (said so), is the suite's
// order, as the CLI and the CSV list a run.

describe("the results table's sort in the URL", () => {
  it("takes the README's keys: ?sort=cost and ?sort=latency sort, they are not ignored", () => {
    expect(SORT_KEYS).toEqual(["order", "name", "status", "score", "cost", "latency"]);
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

  it("opens in suite order, and sorts by name only when asked", () => {
    expect(parseTableQuery({})).toMatchObject({ sort: "order", dir: "asc" });
    expect(queryHref("r1", parseTableQuery({}), {})).toBe("/runs/r1#results");
    expect(queryHref("r1", parseTableQuery({}), { sort: "name" })).toBe(
      "/runs/r1?sort=name#results",
    );
    expect(parseTableQuery({ sort: "name" }).sort).toBe("name");
  });

  it("an unknown key falls back to suite order, visibly", () => {
    const query = parseTableQuery({ sort: "price" });
    expect(query).toMatchObject({ sort: "order", unknownSort: "price" });
    const html = renderToStaticMarkup(createElement(ResultsFilter, { runId: "r1", query }));
    expect(html.replace(/<[^>]+>/g, "")).toContain(
      "No sort “price”: sorted in suite order. The table sorts by order, name, status, score, cost, latency.",
    );
    expect(
      renderToStaticMarkup(
        createElement(ResultsFilter, { runId: "r1", query: parseTableQuery({ sort: "score" }) }),
      ),
    ).not.toContain("unknown-sort");
  });
});
