import { describe, expect, it } from "vitest";
import { REDACTED } from "../../../lib/engine/results/redact-secrets";
import { createRedactor, MIN_SECRET_LENGTH } from "../../../lib/engine/results/redact-values";

// The process's own secrets, removed by value whatever their shape and however
// a reply encodes them.

const KEY = "gw-7f3a9c2e1b4d6a8f0e5c";
const redactor = createRedactor([KEY, 'pa"ss/wo\\rd!', "short"]);

describe("createRedactor", () => {
  it.each([
    ["as sent", `Incorrect API key provided: ${KEY}`],
    ["percent-encoded where a URL needs it", `?key=gw%2D7f3a9c2e1b4d6a8f0e5c`],
    ["percent-encoded in lower case", `?key=gw%2d7f3a9c2e1b4d6a8f0e5c`],
    [
      "every byte percent-encoded",
      Array.from(KEY, (c) => `%${c.charCodeAt(0).toString(16)}`).join(""),
    ],
    ["JSON unicode escapes", `"gw\\u002D7f3a9c2e1b4d6a8f0e5c"`],
  ])("removes a key %s", (_how, text) => {
    const out = redactor.text(text);
    expect(out).toContain(REDACTED);
    expect(out).not.toMatch(/7f3a9c2e1b4d6a8f0e5c|%37%66|\\u0037/i);
  });

  it("removes a secret with JSON's escaped characters, as JSON.stringify writes it", () => {
    const json = JSON.stringify({ echo: 'pa"ss/wo\\rd!' });
    expect(redactor.text(json)).toBe(`{"echo":"${REDACTED}"}`);
    expect(redactor.text('pa"ss/wo\\rd!')).toBe(REDACTED);
  });

  it(`leaves values shorter than ${MIN_SECRET_LENGTH} characters, and other text, alone`, () => {
    expect(redactor.text("a short answer")).toBe("a short answer");
    expect(redactor.text("gw-7f3a9c2e1b4d6a8f0e5")).toBe("gw-7f3a9c2e1b4d6a8f0e5");
  });

  it("still removes credential shapes, and copies only what it changes", () => {
    expect(redactor.text("sk-ant-api03-abcdefghijklmnop")).toBe(REDACTED);
    const clean = { a: ["x", { b: "y" }] };
    expect(redactor.deep(clean)).toBe(clean);
    const dirty = { a: ["x", { b: `k=${KEY}` }] };
    expect(redactor.deep(dirty)).toEqual({ a: ["x", { b: `k=${REDACTED}` }] });
    expect(dirty.a[1]).toEqual({ b: `k=${KEY}` });
  });

  it("with no secrets is the shape redaction alone", () => {
    expect(createRedactor().text(`key ${KEY}`)).toBe(`key ${KEY}`);
  });
});
