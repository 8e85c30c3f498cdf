import { afterAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST } from "../../../app/api/validate/route";
import type { DraftCheck } from "../../../lib/engine/plan/check-draft";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";

// The editor posts the suite to /api/validate as you type. A hostile suite
// (an alias before its anchor, an alias bomb, deep nesting, a jury of a
// hundred million, a likert band of 30,001 points, a weight of 1e308, a
// right-to-left override in a name) is answered at once with located issues:
// never a 500, never a server out of memory.

afterAll(() => resetSuiteWorkers());

const laughs = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
for (const [i, name] of [..."bcdefghi"].entries())
  laughs.push(`${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`);

const HOSTILE: [string, string, { line: number; message: RegExp }][] = [
  [
    "an alias before its anchor",
    'evals:\n  - name: a\n    response: *r\n    rubric: "x"\nr: &r "hi"\n',
    { line: 3, message: /unknown alias \*r/ },
  ],
  [
    "an alias bomb",
    `${laughs.join("\n")}\nevals:\n  - { name: a, response: hi, rubric: *i }\n`,
    { line: 6, message: /aliases expand this file/ },
  ],
  [
    "deep nesting",
    `evals: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`,
    { line: 1, message: /nests deeper than 64 levels/ },
  ],
  [
    "a huge jury",
    "judge: { jury: { size: 99999999 } }\nevals:\n  - { name: a, response: hi, rubric: x }\n",
    { line: 1, message: /jury size must be at most 25/ },
  ],
  [
    "a likert band of 30,001 points",
    "evals:\n  - name: a\n    response: hi\n    rubric:\n      scale: { likert: { min: 0, max: 30000 } }\n      criteria: [{ name: c, description: d }]\n",
    { line: 5, message: /a likert scale has at most 101 points/ },
  ],
  [
    "a weight that overflows the weighted sum",
    "evals:\n  - { name: a, response: hi, rubric: { criteria: [{ name: c, description: d, weight: 1e308 }] } }\n",
    { line: 2, message: /weight must be at most 1,000,000/ },
  ],
  [
    "a right-to-left override in an eval name",
    'evals:\n  - { name: "a\u202Egpj.exe", response: hi, rubric: x }\n',
    { line: 2, message: /bidirectional control \(U\+202E/ },
  ],
];

describe("POST /api/validate with a hostile suite", () => {
  it.each(HOSTILE)(
    "%s: 200 with a located issue and no plan, at once",
    async (_, yaml, expected) => {
      const started = Date.now();
      const response = await POST(
        new Request("http://127.0.0.1/api/validate", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ yaml }),
        }),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(response.status).toBe(200);
      const body = (await response.json()) as DraftCheck;
      expect(body.plan).toBeNull();
      expect(body.issues).toHaveLength(1);
      expect(body.issues[0]).toMatchObject({ line: expected.line, severity: "error" });
      expect(body.issues[0]!.message).toMatch(expected.message);
    },
  );
});
