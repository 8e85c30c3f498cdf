import { describe, expect, it } from "vitest";
import { checkServerProviders, loadServerProviders } from "../../lib/config/server-providers";
import { loadSuite } from "../../lib/config/load-suite";

// The dashboard's providers file and the check a browser suite's own
// providers: block passes (issue 11): located results, never exceptions.

describe("the server's providers file", () => {
  it("reads a providers: block as a suite writes it", () => {
    const loaded = loadServerProviders({
      text: 'providers:\n  local: { type: openai, base_url: "http://127.0.0.1:8000/v1", api_key_env: LOCAL_KEY }\n',
      file: "providers.yaml",
    });
    expect(loaded).toEqual({
      ok: true,
      value: {
        local: { type: "openai", baseUrl: "http://127.0.0.1:8000/v1", apiKeyEnv: "LOCAL_KEY" },
      },
    });
  });

  it("a malformed base_url or an unknown field is an error at its line and column", () => {
    const loaded = loadServerProviders({
      text: "providers:\n  local:\n    type: openai\n    base_url: not-a-url\n    key: x\n",
      file: "providers.yaml",
    });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues.map((i) => [i.line, i.column])).toEqual([
      [4, 15],
      [5, 5],
    ]);
  });
});

describe("checkServerProviders", () => {
  const server = { local: { type: "openai" as const, baseUrl: "http://127.0.0.1:8000/v1" } };
  const check = (block: string) => {
    const text = `providers:\n${block}\nevals:\n  - name: e\n    response: "r"\n    rubric: "g"\n`;
    const loaded = loadSuite({ text, file: "suite.yaml" });
    if (!loaded.ok) throw new Error(loaded.issues[0]!.message);
    return checkServerProviders({ text, suite: loaded.value, server });
  };

  it("accepts an entry exactly as the server defines it", () => {
    expect(check('  local: { type: openai, base_url: "http://127.0.0.1:8000/v1" }')).toEqual([]);
  });

  it("an added api_key_env, a redeclared built-in and an unknown provider are each an error where they are written", () => {
    const issues = check(
      '  local: { type: openai, base_url: "http://127.0.0.1:8000/v1", api_key_env: HOME }\n  openai: { type: openai, base_url: "http://10.0.0.5/v1" }',
    );
    expect(issues.map((i) => [i.line, i.path.join("."), i.message.split(":")[0]])).toEqual([
      [2, "providers.local.api_key_env", 'provider "local"'],
      [3, "providers.openai", 'provider "openai" is not defined on this server'],
    ]);
    expect(issues[0]!.message).toContain("api_key_env must be left out, as this server defines it");
  });
});
