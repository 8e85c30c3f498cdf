import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST as createSuite } from "../../../app/api/suites/route";
// eslint-disable-next-line no-restricted-imports
import { PATCH as renameSuite } from "../../../app/api/suites/[id]/route";
// eslint-disable-next-line no-restricted-imports
import { POST as saveVersion } from "../../../app/api/suites/[id]/versions/route";
// eslint-disable-next-line no-restricted-imports
import { POST as logIn } from "../../../app/api/auth/login/route";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { releaseRouteDatabase } from "../../support/route-database";
import { useTestDatabase } from "../../support/test-database";

// A NUL (or an unpaired surrogate) in a suite's name or its saved YAML gave a
// 500 with an empty body: Postgres text cannot hold it. Every JSON body is
// now checked once, where routes read it: a 400 that names the field.

const db = useTestDatabase();
const YAML = 'evals:\n  - name: a\n    response: "A."\n    rubric: "Is it right?"\n';
let suiteId: string;

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  const created = await createSuiteStore(db.prisma).createSuite({ name: "plain", yaml: YAML });
  if (!created.ok) throw new Error(created.message);
  suiteId = created.value.id;
}, 60_000);
afterAll(releaseRouteDatabase);

const send = (method: string, body: unknown) =>
  new Request("http://127.0.0.1/x", {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe("suite routes and text Postgres cannot store", () => {
  it.each([
    [
      "a new suite's name",
      () => createSuite(send("POST", { name: "a\u0000b", yaml: YAML })),
      "name",
    ],
    [
      "a new suite's YAML",
      () => createSuite(send("POST", { name: "n", yaml: `# \u0000\n${YAML}` })),
      "yaml",
    ],
    ["a rename", () => renameSuite(send("PATCH", { name: "x\ud800" }), params(suiteId)), "name"],
    [
      "a saved version",
      () => saveVersion(send("POST", { yaml: `${YAML}# \u0000` }), params(suiteId)),
      "yaml",
    ],
  ])("%s: 400 naming the field", async (_, call, field) => {
    const response = await call();
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toMatch(new RegExp(`^${field}: contains .*cannot be stored`));
  });

  it("nothing was stored, and the suite is unchanged", async () => {
    expect(await db.prisma.suite.count()).toBe(1);
    expect(await db.prisma.suiteVersion.count()).toBe(1);
    expect((await db.prisma.suite.findUniqueOrThrow({ where: { id: suiteId } })).name).toBe(
      "plain",
    );
  });

  it("a login name with a NUL: 400, not a session whose every label would fail", async () => {
    const response = await logIn(send("POST", { password: "whatever", name: "ana\u0000" }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^name: contains .*cannot be stored/);
  });
});
