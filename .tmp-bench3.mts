import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import http from "node:http";
const child = spawn(process.execPath, ["--import", "tsx", "test/support/fake-messages-api-main.ts", "--latency-ms", "20"], { stdio: ["ignore", "pipe", "inherit"] });
const url = new URL(await new Promise<string>((r) => createInterface({ input: child.stdout! }).on("line", (l) => { const m = /^READY (\S+)/.exec(l); if (m) r(m[1]!); })));
const agent = new http.Agent({ keepAlive: true });
const body = (i: number) => ({ model: "claude-haiku-4-5", max_tokens: 512, system: "R".repeat(8000), messages: [{ role: "user", content: "c" + i }], tools: [{ name: "record_verdict", input_schema: { type: "object" } }] });
function one(i: number) { return new Promise<void>((resolve, reject) => {
  const data = JSON.stringify(body(i));
  const req = http.request({ agent, host: url.hostname, port: url.port, path: "/v1/messages", method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2026-10-21", "content-length": Buffer.byteLength(data) } }, (res) => { const c: Buffer[] = []; res.on("data", (d) => c.push(d)); res.on("end", () => { JSON.parse(Buffer.concat(c).toString()); resolve(); }); });
  req.on("error", reject); req.end(data); }); }
for (let i = 0; i < 50; i++) await one(i);
const N = Number(process.argv[2] ?? 600), C = 16; const cpu0 = process.cpuUsage(); let next = 0;
await Promise.all(Array.from({ length: C }, async () => { while (next < N) await one(next++); }));
const cpu = process.cpuUsage(cpu0);
console.log("http", { cpuMsPerCall: (cpu.user + cpu.system) / 1000 / N });
child.kill("SIGTERM");
