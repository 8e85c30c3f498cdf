import { describe, expect, it } from "vitest";
import { checkDraft } from "../../../lib/engine/plan/check-draft";
import { allowListedServers } from "../../../lib/live/allow-servers";

// The editor's plan panel: which evals a run from the dashboard would defer,
// including live evals whose server the server's MCP allow-list refuses.

const SUITE = `servers:
  calendar:
    command: node
    args: [mcp-server.mjs]
  other:
    command: node
    args: [evil.mjs]
evals:
  - name: books
    server: calendar
    prompt: "Book a meeting."
    rubric: "Booked it."
  - name: sneaky
    server: other
    prompt: "Anything."
    rubric: "Anything."
  - name: fixed
    response: "Hello."
    rubric: "Greets."
`;

const base = {
  text: SUITE,
  file: "suite.yaml",
  priceOf: () => undefined,
  defaultModel: "claude-sonnet-4-6",
};

describe("checkDraft with the MCP allow-list", () => {
  it("lists the live evals whose server the allow-list refuses, and only those", () => {
    const allowServer = allowListedServers({
      calendar: {
        kind: "stdio",
        command: "node",
        args: ["mcp-server.mjs"],
        env: {},
        startTimeoutSeconds: 30,
        toolTimeoutSeconds: 60,
      },
      other: {
        kind: "stdio",
        command: "node",
        args: ["other.mjs"],
        env: {},
        startTimeoutSeconds: 30,
        toolTimeoutSeconds: 60,
      },
    });
    const draft = checkDraft({ ...base, allowServer });
    expect(draft.plan?.deferred).toEqual([
      {
        name: "sneaky",
        reason:
          'server "other" is not allowed here: its configuration differs from the one this deployment allows under that name',
      },
    ]);
    // Calls are still those of a real run: the author is sizing the suite.
    expect(draft.plan?.judgeCalls).toBe(3);
  });

  it("without an allow-list check, defers nothing a run with a key would grade", () => {
    expect(checkDraft(base).plan?.deferred).toEqual([]);
  });
});
