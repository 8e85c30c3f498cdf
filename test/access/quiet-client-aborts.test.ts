import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What scripts/serve.ts loads into the Next server (issue 21, item 7): a
// client that aborts an upload made Next print Node's `Error: aborted`
// (ECONNRESET) whole, four lines each time, so a client could flood the log.
// Loaded into a child process (it replaces console.error) that receives a
// real aborted upload and prints what Next prints: the error object.

const MODULE = fileURLToPath(new URL("../../lib/access/quiet-client-aborts.mjs", import.meta.url));

// A server that reads each request's body and, as Next does, console.error()s
// the error its reader fails with; a client that aborts five uploads; then an
// error of another kind, which must print whole.
const SCRIPT = `
import http from "node:http";
import net from "node:net";
const server = http.createServer((req, res) => {
  req.on("error", (error) => console.error(error));
  req.resume();
  req.on("end", () => res.end("ok"));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();
for (let i = 0; i < 5; i++) {
  await new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write("POST /api/validate HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 100000\\r\\n\\r\\n" + "x".repeat(1000));
      setTimeout(() => { socket.destroy(); setTimeout(resolve, 100); }, 50);
    });
    socket.on("error", () => {});
  });
}
console.error(new Error("a real problem"));
server.close();
`;

function run(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", MODULE, "--input-type=module", "-e", SCRIPT],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", () => resolve(output));
  });
}

describe("quiet-client-aborts", () => {
  it("five aborted uploads: one short line, not twenty; any other error prints whole", async () => {
    const output = await run();
    const lines = output.trim().split("\n");
    const aborts = lines.filter((l) => /aborted|ECONNRESET/.test(l));
    expect(aborts).toEqual([
      "1 request aborted by the client before the body was read (ECONNRESET; at most one such line a minute)",
    ]);
    expect(output).not.toContain("Error: aborted");
    expect(output).toContain("Error: a real problem");
    expect(output).toMatch(/Error: a real problem\n\s+at /);
  });
});
