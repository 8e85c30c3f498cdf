import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What scripts/serve.ts loads into the Next server when no proxy is trusted
// (issue 13, items 6 and 8): a client's own X-Forwarded-* headers never reach
// the app, and X-Forwarded-For is the socket's peer address. Loaded here into
// this test's process, in front of a plain HTTP server that echoes what it got.

let server: http.Server;
let port: number;

/** node:http, since fetch will not send a Host header of its own choosing. */
function get(headers: Record<string, string>): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/api/suites", headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve(JSON.parse(body) as Record<string, string>));
    });
    req.on("error", reject);
  });
}

beforeAll(async () => {
  await import("../../lib/access/ignore-forwarded-headers.mjs");
  server = http.createServer((req, res) => res.end(JSON.stringify(req.headers)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("ignore-forwarded-headers", () => {
  it("drops a client's forwarded headers and writes the socket's address as X-Forwarded-For", async () => {
    const seen = await get({
      host: "evil.example:4700",
      "x-forwarded-host": "127.0.0.1:4700",
      "x-forwarded-for": "10.1.2.3",
      "x-forwarded-proto": "https",
      forwarded: "for=10.1.2.3",
      "x-real-ip": "10.1.2.3",
    });
    expect(seen["host"]).toBe("evil.example:4700");
    expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
    for (const name of ["x-forwarded-host", "x-forwarded-proto", "forwarded", "x-real-ip"])
      expect(seen[name], name).toBeUndefined();
  });
});
