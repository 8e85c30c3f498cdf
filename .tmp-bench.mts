import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createAnthropicJudge } from "./lib/judge/anthropic-judge";
const child = spawn(process.execPath, ["--import", "tsx", "test/support/fake-messages-api-main.ts", "--latency-ms", "20", "--rate-429", process.argv[2] ?? "0", "--retry-after", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise<string>((r) => createInterface({ input: child.stdout! }).on("line", (l) => { const m = /^READY (\S+)/.exec(l); if (m) r(m[1]!); }));
const judge = createAnthropicJudge({ apiKey: "k", baseURL: url, sleep: async () => {} });
const slot = { release() {}, async acquire() {} };
const req = (i: number) => ({ model: "claude-haiku-4-5", temperature: 0, maxTokens: 512, templateVersion: "v", stablePrompt: "R".repeat(Number(process.env.SP ?? 8000)), candidatePrompt: "candidate " + i, verdict: "score" as const });
// warm up
await Promise.all(Array.from({ length: 20 }, (_, i) => judge.grade(req(i), { slot })));
const N = Number(process.argv[3] ?? 600), C = 16;
const cpu0 = process.cpuUsage(); const t0 = Date.now();
let next = 0; let ok = 0;
await Promise.all(Array.from({ length: C }, async () => { while (next < N) { const i = next++; const o = await judge.grade(req(i), { slot }); if (o.ok) ok++; } }));
const cpu = process.cpuUsage(cpu0);
console.log({ ok, wallMs: Date.now() - t0, cpuMsPerCall: (cpu.user + cpu.system) / 1000 / N });
child.kill("SIGTERM");
