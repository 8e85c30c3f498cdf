import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { DELETE as release, POST as claim } from "../../../app/api/review/[id]/claim/route";
// eslint-disable-next-line no-restricted-imports
import { POST as label } from "../../../app/api/review/[id]/label/route";
// eslint-disable-next-line no-restricted-imports
import { POST as ask } from "../../../app/api/runs/[id]/review/route";
// eslint-disable-next-line no-restricted-imports
import { POST as addToDataset } from "../../../app/api/labels/[id]/dataset/route";
// eslint-disable-next-line no-restricted-imports
import { GET as downloadDataset } from "../../../app/api/suites/[id]/dataset/route";
import { createReviewQueue } from "../../../lib/store/review-queue";
import { createRunStore } from "../../../lib/store/run-store";
import { createFakeJudge } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";
import { useTestDatabase } from "../../support/test-database";

// The review routes as Next calls them, on loopback without a login (the
// reviewer's name comes with the request): claims and labels answer 200/201,
// a held or labelled item 409, and every malformed request a 400 or 404 with
// a message, never a 500.

const db = useTestDatabase();
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };
const SUITE = `
evals:
  - name: jury
    response: "An answer."
    judge: { jury: { size: 2 } }
    rubric:
      scale: boolean
      criteria:
        - { name: correct, description: "Correct." }
`;
let runId: string;
let itemId: string;
let suiteId: string;

beforeAll(async () => {
  process.env.DATABASE_URL = db.url;
  let calls = 0;
  const report = await runYaml(SUITE, {
    judge: createFakeJudge(() => ({ score: calls++ % 2 ? 0.1 : 0.9 })),
  });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "routes.yaml", yaml: SUITE });
  runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "routes.yaml",
      toolVersion: "0.1.0",
      judgeModel: "m",
      concurrency: 1,
      timeoutSeconds: 60,
    },
    totalCells: 1,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
  suiteId = version.suiteId;
  itemId = (await createReviewQueue(db.prisma).list({ suiteId })).items[0]!.id;
}, 60_000);
afterAll(async () => {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (body: unknown) =>
  new Request("http://127.0.0.1/x", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
async function answer(response: Response): Promise<[number, unknown]> {
  return [response.status, await response.json()];
}

describe("claim and label", () => {
  it("claims for one reviewer, refuses another with who holds it, and labels on the item's scale", async () => {
    expect((await claim(post({ reviewer: "ana" }), params(itemId))).status).toBe(200);
    expect(await answer(await claim(post({ reviewer: "ben" }), params(itemId)))).toEqual([
      409,
      { error: { code: "claimed", message: "ana is labelling this item." } },
    ]);
    expect(
      await answer(await label(post({ reviewer: "ben", answer: "pass" }), params(itemId))),
    ).toEqual([409, { error: { code: "claimed", message: "ana is labelling this item" } }]);
    const [status, body] = await answer(
      await label(post({ reviewer: "ana", answer: "maybe" }), params(itemId)),
    );
    expect([status, (body as { error: { code: string } }).error.code]).toEqual([
      400,
      "bad_request",
    ]);
    const [saved, labelled] = await answer(
      await label(post({ reviewer: "ana", answer: "pass", note: "clearly right" }), params(itemId)),
    );
    expect(saved).toBe(201);
    expect(labelled).toMatchObject({
      label: {
        reviewer: "ana",
        value: "pass",
        score: 1,
        note: "clearly right",
        candidate: "An answer.",
      },
      verdicts: [{ said: "pass" }, { said: "fail" }],
    });
    expect(await answer(await claim(post({ reviewer: "ana" }), params(itemId)))).toEqual([
      409,
      { error: { code: "labelled", message: "This item is labelled already." } },
    ]);
  });

  it("answers malformed requests with 400 or 404, never 500", async () => {
    const cases: [Response, number][] = [
      [await claim(post("{not json"), params(itemId)), 400],
      [await claim(post({}), params(itemId)), 400],
      [await claim(post({ reviewer: "   " }), params(itemId)), 400],
      [await claim(post({ reviewer: "x".repeat(500) }), params(itemId)), 400],
      [await claim(post({ reviewer: "ana", extra: 1 }), params(itemId)), 400],
      [await claim(post({ reviewer: "ana" }), params("not-a-uuid")), 404],
      [await claim(post({ reviewer: "ana" }), params("0b7e7a3c-0000-4000-8000-000000000000")), 404],
      [await release(post({ reviewer: 42 }), params(itemId)), 400],
      [await label(post({ reviewer: "ana", answer: "" }), params(itemId)), 400],
      [await label(post({ reviewer: "ana", answer: "p".repeat(41) }), params(itemId)), 400],
      [
        await label(
          post({ reviewer: "ana", answer: "pass", note: "n".repeat(2001) }),
          params(itemId),
        ),
        400,
      ],
      [await label(post({ reviewer: "ana", answer: "pass" }), params("\u0000")), 404],
      [
        await ask(
          post({ reviewer: "ana", resultKey: "jury", criterion: "correct" }),
          params("not-a-uuid"),
        ),
        404,
      ],
      [
        await ask(
          post({ reviewer: "ana", resultKey: "no such result", criterion: "correct" }),
          params(runId),
        ),
        404,
      ],
      [await ask(post({ reviewer: "ana", resultKey: "jury" }), params(runId)), 400],
      [
        await ask(
          post({ reviewer: "ana", resultKey: "k".repeat(2001), criterion: "c" }),
          params(runId),
        ),
        400,
      ],
    ];
    for (const [response, status] of cases) {
      const body = (await response.json()) as { error?: { message?: string } };
      expect([response.status, typeof body.error?.message]).toEqual([status, "string"]);
    }
  });

  it("a NUL or an unpaired surrogate in a reviewer name, a note or a resultKey: 400 naming the field, not a 500 with an empty body", async () => {
    const cases: [Response, string][] = [
      [await claim(post({ reviewer: "a\u0000b" }), params(itemId)), "reviewer"],
      [await claim(post({ reviewer: "a\ud800" }), params(itemId)), "reviewer"],
      [
        await label(post({ reviewer: "ana", answer: "pass", note: "n\u0000" }), params(itemId)),
        "note",
      ],
      [
        await ask(
          post({ reviewer: "ana", resultKey: "jury", criterion: "correct", note: "x\u0000" }),
          params(runId),
        ),
        "note",
      ],
      [
        await ask(
          post({ reviewer: "ana", resultKey: "ju\u0000ry", criterion: "correct" }),
          params(runId),
        ),
        "resultKey",
      ],
      // As a browser sends it: the escape in the JSON text.
      [await claim(post('{"reviewer":"a\\u0000"}'), params(itemId)), "reviewer"],
    ];
    for (const [response, field] of cases) {
      const [status, body] = await answer(response);
      expect(status).toBe(400);
      expect((body as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^${field}: contains (a NUL character|an unpaired surrogate).*cannot be stored`),
      );
    }
  });

  it("Ask a person queues a criterion once, saying who asked and why", async () => {
    const [status, item] = await answer(
      await ask(
        post({ reviewer: "ana", resultKey: "jury", criterion: "correct", note: "borderline" }),
        params(runId),
      ),
    );
    expect(status).toBe(201);
    expect(item).toMatchObject({
      reason: "asked",
      detail: "asked by ana: borderline",
      state: "open",
      evalName: "jury",
    });
    const [again, same] = await answer(
      await ask(post({ reviewer: "ben", resultKey: "jury", criterion: "correct" }), params(runId)),
    );
    expect([again, (same as { id: string }).id]).toEqual([201, (item as { id: string }).id]);
  });

  it("Add to dataset appends the label; the suite's dataset downloads as ReferenceDataset JSON", async () => {
    const labelled = await db.prisma.humanLabel.findFirstOrThrow({
      where: { reviewItemId: itemId },
    });
    const [status, added] = await answer(await addToDataset(post({}), params(labelled.id)));
    expect([status, added]).toMatchObject([
      201,
      {
        added: true,
        items: 1,
        item: { annotations: [{ name: "correct", score: 1, label: "pass", annotator_id: "ana" }] },
      },
    ]);
    const response = await downloadDataset(new Request("http://127.0.0.1/x"), params(suiteId));
    expect([response.status, response.headers.get("content-disposition")]).toEqual([
      200,
      'attachment; filename="routes.yaml-labels.json"',
    ]);
    expect(await response.json()).toMatchObject({
      id: "routes.yaml-labels",
      items: [{ expected_output: "An answer." }],
    });
    expect((await addToDataset(post({}), params("not-a-uuid"))).status).toBe(404);
    expect(
      (
        await downloadDataset(
          new Request("http://127.0.0.1/x"),
          params("0b7e7a3c-0000-4000-8000-000000000000"),
        )
      ).status,
    ).toBe(404);
  });
});
