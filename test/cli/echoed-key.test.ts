import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A test may call a route handler the way Next does; the rule keeps lib/ and components/ off app/.
// eslint-disable-next-line no-restricted-imports
import { GET as resultsCsv } from "../../app/api/runs/[id]/results.csv/route";
// eslint-disable-next-line no-restricted-imports
import { GET as resultRows } from "../../app/api/runs/[id]/results/route";
import { startFakeOpenAIApi, type FakeOpenAIApi } from "../support/fake-openai-api";
import { useTestDatabase } from "../support/test-database";
import { makeWorkspace, yaml, type Workspace } from "./cli-harness";

// A gateway that answers 401 "Incorrect API key provided: <key>" (as several
// do) must not get the key published: the secrets this process holds and sends
// are removed by value, in every encoding a reply may carry them, before the
// result is stored or rendered. Through the real CLI, the real openai SDK
// against the stand-in, all ten reporters, the store, `report` and the run
// page's two routes.

// Shaped like nothing the credential patterns know.
const GATEWAY_KEY = "gw-7f3a9c2e1b4d6a8f0e5c";
const PASSWORD = "correct horse battery";
const TOKEN = "tok.19f0c3a7e2b84d5";

const percentEncodeAll = (text: string) =>
  Array.from(text, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join(
    "",
  );
const jsonUnicodeEscape = (text: string) =>
  text.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

// What the gateway says: the key as sent, percent-encoded (a URL it quotes,
// `gw%2D7f…`, and every byte), JSON-escaped, and the dashboard's password and
// token, which it should never have seen but which the process holds.
const ECHO = [
  `Incorrect API key provided: ${GATEWAY_KEY}.`,
  `See https://gateway.example/keys?key=${GATEWAY_KEY.replace("-", "%2D")}`,
  `or ${percentEncodeAll(GATEWAY_KEY)}`,
  `raw ${jsonUnicodeEscape(GATEWAY_KEY)}`,
  `password ${percentEncodeAll(PASSWORD)} ${PASSWORD}; token ${jsonUnicodeEscape(TOKEN)}`,
].join(" ");

/** The text with %XX and \uXXXX decoded, so that no encoding hides a leak from the check. */
function decoded(text: string): string {
  return text
    .replace(/\\\\u([0-9a-fA-F]{4})|\\u([0-9a-fA-F]{4})/g, (_m, a: string, b: string) =>
      String.fromCharCode(parseInt(a ?? b, 16)),
    )
    .replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function expectNoSecret(where: string, text: string) {
  for (const secret of [GATEWAY_KEY, PASSWORD, TOKEN]) {
    expect(decoded(text).includes(secret), `${where} shows ${secret}`).toBe(false);
  }
}

const db = useTestDatabase();
let api: FakeOpenAIApi;
let ws: Workspace;
const finished: (() => void | Promise<void>)[] = [];
const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };

beforeAll(async () => {
  api = await startFakeOpenAIApi({
    respond: () => ({
      status: 401,
      body: { error: { message: ECHO, type: "invalid_request_error", code: "invalid_api_key" } },
    }),
  });
  ws = await makeWorkspace((fn) => void finished.push(fn));
  await ws.write(
    "suite.yaml",
    yaml(
      "providers:",
      `  gateway: { type: openai, base_url: "${api.url}", api_key_env: GATEWAY_KEY }`,
      "evals:",
      "  - name: refund answer",
      '    response: "Refunds take 5 days."',
      '    rubric: "States how long a refund takes."',
      "    judge: { model: gateway:qwen3-8b }",
    ),
  );
});

afterAll(async () => {
  for (const fn of finished.reverse()) await fn();
  await api?.close();
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
});

describe("a key the endpoint echoes", () => {
  it("is in no report, no stored row, no `report` output and neither run-page route", async () => {
    const env = {
      GATEWAY_KEY,
      RUBRIC_STUDIO_PASSWORD: PASSWORD,
      RUBRIC_STUDIO_API_TOKEN: TOKEN,
      DATABASE_URL: db.url,
    };
    const all = "pretty,json,junit,md,html,sarif,gitlab,ndjson,tap,csv";
    const cli = await ws.cli(
      ["eval", "--config", "suite.yaml", "--store", "--reporter", all, "--output", "out"],
      env,
    );
    // The gateway did say it, and the result says why it failed.
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${GATEWAY_KEY}`);
    expect(cli.stdout + cli.stderr).toContain("Incorrect API key provided: [REDACTED]");
    expectNoSecret("the terminal", cli.stdout + cli.stderr);
    const files = await readdir(path.join(ws.dir, "out"));
    expect(files).toHaveLength(9);
    for (const file of files) {
      expectNoSecret(file, await readFile(path.join(ws.dir, "out", file), "utf8"));
    }

    // What was stored, whole, and what `report` renders from it.
    const rows = await db.prisma.evalResultRow.findMany();
    expect(rows.length).toBe(1);
    expectNoSecret("the stored result", JSON.stringify(rows));
    const stored = await ws.cli(["report", "latest", "--reporter", all, "--output", "again"], env);
    expectNoSecret("report latest", stored.stdout + stored.stderr);
    for (const file of await readdir(path.join(ws.dir, "again"))) {
      expectNoSecret(`report ${file}`, await readFile(path.join(ws.dir, "again", file), "utf8"));
    }

    // The run page's table and its CSV download.
    process.env.DATABASE_URL = db.url;
    const runId = rows[0]!.runId;
    const params = { params: Promise.resolve({ id: runId }) };
    const page = await resultRows(
      new Request(`http://127.0.0.1/api/runs/${runId}/results`),
      params,
    );
    expect(page.status).toBe(200);
    const pageText = await page.text();
    expect(pageText).toContain("[REDACTED]");
    expectNoSecret("/api/runs/<id>/results", pageText);
    const csv = await resultsCsv(
      new Request(`http://127.0.0.1/api/runs/${runId}/results.csv`),
      params,
    );
    expect(csv.status).toBe(200);
    expectNoSecret("results.csv", await csv.text());
  }, 120_000);
});
