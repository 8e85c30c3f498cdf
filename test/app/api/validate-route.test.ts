import { afterAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { POST as validate } from "../../../app/api/validate/route";
import type { DraftCheck } from "../../../components/authoring/api-types";
import { resetSuiteWorkers } from "../../../lib/offthread/suite-workers";

// The editor's check as the dashboard answers it: what a user reads in the
// plan panel, and what happens when the browser gives up on a request.

afterAll(() => resetSuiteWorkers());

const post = (yaml: string) =>
  new Request("http://127.0.0.1/api/validate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ yaml }),
  });

describe("POST /api/validate", () => {
  it("says a document given by file is not read in the dashboard, instead of 'no response to grade'", async () => {
    const response = await validate(
      post(
        `evals:\n  - name: checkout prd\n    document: { file: docs/checkout-prd.md }\n    rubric: "The PRD states the problem."\n`,
      ),
    );
    expect(response.status).toBe(200);
    const check = (await response.json()) as DraftCheck;
    expect(check.plan?.deferred).toEqual([
      {
        name: "checkout prd",
        reason:
          'the document file "docs/checkout-prd.md" is not read here (the dashboard reads no files): write its text inline as document: { text: ... }, or grade it with rubric-studio eval',
      },
    ]);
  });

  it("answers a request whose browser hung up mid-body with a 400, without an unhandled error", async () => {
    // What Next hands a handler when the client aborts: a body stream that errors with "aborted".
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"yaml": "evals:'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request("http://127.0.0.1/api/validate", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    const response = await validate(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "bad_request", message: "The request body could not be read: aborted." },
    });
  });
});
