import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import Anthropic from "@anthropic-ai/sdk";
import { createNodeHttpFetch } from "./lib/judge/node-http-fetch";
const child = spawn(process.execPath, ["--import", "tsx", "test/support/fake-messages-api-main.ts", "--latency-ms", "20"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise<string>((r) => createInterface({ input: child.stdout! }).on("line", (l) => { const m = /^READY (\S+)/.exec(l); if (m) r(m[1]!); }));
const body = (i: number) => ({ model: "claude-haiku-4-5", max_tokens: 512, system: "R".repeat(8000), messages: [{ role: "user", content: "c" + i }], tools: [{ name: "record_verdict", input_schema: { type: "object" } }] });
const mode = process.argv[2];
const client = new Anthropic({ apiKey: "k", baseURL: url, maxRetries: 0, timeout: 60000, ...(process.env.NF ? { fetch: createNodeHttpFetch() } : {}), ...(process.env.NOTEL ? { openTelemetry: false } : {}) });
async function one(i: number) {
  if (mode === "fetch") { const r = await fetch(url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2026-10-21" }, body: JSON.stringify(body(i)) }); await r.json(); }
  else await client.messages.create(body(i) as never);
}
for (let i = 0; i < 50; i++) await one(i);
const N = Number(process.argv[3] ?? 600), C = 16; const cpu0 = process.cpuUsage(); let next = 0;
await Promise.all(Array.from({ length: C }, async () => { while (next < N) await one(next++); }));
const cpu = process.cpuUsage(cpu0);
console.log(mode, { cpuMsPerCall: (cpu.user + cpu.system) / 1000 / N });
child.kill("SIGTERM");
