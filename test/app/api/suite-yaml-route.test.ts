import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET } from "../../../app/api/suites/[id]/yaml/route";
import { createSuiteStore } from "../../../lib/store/suite-store";
import {
  calibrateCommandFor,
  shellQuote,
  suiteFileName,
} from "../../../components/authoring/suite-file";
import { useTestDatabase } from "../../support/test-database";

// Issue 12 §11, export: any saved version of a suite downloads as text/yaml,
// exactly as saved, under a file name made from the suite's name; and the
// command the calibration page prints is one a shell runs as meant.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };
const V1 = 'evals:\n  - name: first\n    response: "A."\n    rubric: "Is it right?"\n';
const V2 = `${V1}  - name: second\n    response: "B."\n    rubric: "Is it right?"\n`;
let suiteId: string;
let firstVersion: string;
let emptyId: string;

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  const store = createSuiteStore(db.prisma);
  const created = await store.createSuite({ name: 'release "notes" jury', yaml: V1 });
  if (!created.ok) throw new Error(created.message);
  suiteId = created.value.id;
  const versions = await store.listVersions(suiteId);
  if (!versions.ok) throw new Error(versions.message);
  firstVersion = versions.value[0]!.id;
  const saved = await store.saveVersion({ suiteId, yaml: V2 });
  if (!saved.ok) throw new Error(saved.message);
  emptyId = (await db.prisma.suite.create({ data: { name: "never saved" } })).id;
}, 60_000);
afterAll(async () => {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

const get = (id: string, query = "") =>
  GET(new Request(`http://127.0.0.1/api/suites/${id}/yaml${query}`), {
    params: Promise.resolve({ id }),
  });

describe("GET /api/suites/<id>/yaml", () => {
  it("serves the newest version as a text/yaml attachment named after the suite", async () => {
    const response = await get(suiteId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/yaml; charset=utf-8");
    // The name has no extension: the file gets `.yaml`, so it opens as YAML and the calibration hint can name it.
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="release _notes_ jury.yaml"; filename*=UTF-8''release%20_notes_%20jury.yaml`,
    );
    expect(await response.text()).toBe(V2);
  });

  it("serves any earlier version by its id; an unknown version or suite is a 404 with a message", async () => {
    expect(await (await get(suiteId, `?version=${firstVersion}`)).text()).toBe(V1);
    const unknown = await get(suiteId, "?version=00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      "This suite has no such version.",
    );
    expect((await get("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get(suiteId, "?version=not-a-uuid")).status).toBe(404);
  });

  it("a suite with nothing saved says so", async () => {
    const response = await get(emptyId);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "This suite has no saved version yet: save one first.",
    );
  });
});

describe("the suite as a file and as a shell word", () => {
  it("names the download after the suite's last path segment, without what file systems refuse", () => {
    expect(suiteFileName("examples/rubric-eval.yaml")).toBe("rubric-eval.yaml");
    expect(suiteFileName("release notes jury")).toBe("release notes jury.yaml");
    expect(suiteFileName("big twelve")).toBe("big twelve.yaml");
    expect(suiteFileName("suite.YML")).toBe("suite.YML");
    expect(suiteFileName("a:b*c?.yaml")).toBe("a_b_c_.yaml");
    expect(suiteFileName("../..")).toBe("suite.yaml");
  });

  it("the calibrate hint names the downloaded file, and the suite by --suite when the file's name is not the suite's", () => {
    expect(calibrateCommandFor("big twelve")).toBe(
      "npx rubric-studio calibrate --config 'big twelve.yaml' --store --suite 'big twelve'",
    );
    expect(calibrateCommandFor("rubric-eval.yaml")).toBe(
      "npx rubric-studio calibrate --config rubric-eval.yaml --store",
    );
    expect(calibrateCommandFor("examples/rubric-eval.yaml")).toBe(
      "npx rubric-studio calibrate --config rubric-eval.yaml --store --suite examples/rubric-eval.yaml",
    );
  });

  it("quotes what the shell would split or expand", () => {
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});
