import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call route handlers the way Next does; the rule keeps lib/ and components/ off app/.
/* eslint-disable no-restricted-imports */
import { POST as createSuite } from "../../../app/api/suites/route";
import { PATCH as renameSuite } from "../../../app/api/suites/[id]/route";
/* eslint-enable no-restricted-imports */
import { createRunStore } from "../../../lib/store/run-store";
import { releaseRouteDatabase } from "../../support/route-database";
import { useTestDatabase } from "../../support/test-database";

// Issue 21, item 10: suite names were cut by UTF-16 units and kept right-to-
// left overrides and control characters. A name from a browser or a file is
// stored in one normal form (lib/config/clean-name.ts): no control or
// bidirectional characters, and counted and cut in code points.

const db = useTestDatabase();
const YAML = 'evals:\n  - name: a\n    response: "A."\n    rubric: "Is it right?"\n';

beforeAll(() => {
  process.env.DATABASE_URL = db.url;
});
afterAll(releaseRouteDatabase);

const send = (method: string, url: string, body: unknown) =>
  new Request(`http://127.0.0.1${url}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function nameOf(id: string): Promise<string> {
  return (await db.prisma.suite.findUniqueOrThrow({ where: { id } })).name;
}

describe("suite names", () => {
  it("a right-to-left override and control characters are not stored", async () => {
    const response = await createSuite(
      send("POST", "/api/suites", {
        name: "invoice\u202Etxt.exe\u0007 \u2066x\u2069\tjury",
        yaml: YAML,
      }),
    );
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await nameOf(id)).toBe("invoicetxt.exe x jury");
  });

  it("200 characters are counted in code points: two emoji at the end are two characters", async () => {
    const created = await createSuite(send("POST", "/api/suites", { name: "draft", yaml: YAML }));
    const { id } = (await created.json()) as { id: string };
    const name = `${"a".repeat(198)}😀😀`;
    const renamed = await renameSuite(send("PATCH", `/api/suites/${id}`, { name }), {
      params: Promise.resolve({ id }),
    });
    expect(renamed.status).toBe(200);
    expect(await nameOf(id)).toBe(name);
    const over = await renameSuite(send("PATCH", `/api/suites/${id}`, { name: `${name}😀` }), {
      params: Promise.resolve({ id }),
    });
    expect(over.status).toBe(400);
    expect(JSON.stringify(await over.json())).toMatch(/Keep the name under 200 characters/);
  });

  it("a name of nothing but controls is no name", async () => {
    const response = await createSuite(
      send("POST", "/api/suites", { name: "\u202E\u0001\u0007", yaml: YAML }),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/A suite needs a name/);
  });

  it("a suite named by a CLI file path is stored in the same form, and found again by it", async () => {
    const runs = createRunStore(db.prisma);
    const first = await runs.saveSuiteVersion({ name: "evals/\u202Egpj.yaml", yaml: YAML });
    const again = await runs.saveSuiteVersion({ name: "evals/\u202Egpj.yaml", yaml: YAML });
    expect(again.suiteId).toBe(first.suiteId);
    expect(await nameOf(first.suiteId)).toBe("evals/gpj.yaml");
  });
});
