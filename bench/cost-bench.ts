import { spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readSuiteFile } from "../lib/cli/read-suite-file";
import { explainPlan } from "../lib/engine/plan/explain-plan";
import { planSuite } from "../lib/engine/plan/plan-suite";
import { cacheMinimumOf } from "../lib/judge/cache-minimums";
import {
  startFakeMessagesApi,
  type FakeReply,
  type FakeRequest,
  type InputUsage,
} from "../test/support/fake-messages-api";

// `npm run bench:cost`: what the prompt cache saves on three workloads, run
// through the real CLI against the Messages API stand-in with its prompt-cache
// emulation (test/support/prompt-cache.ts: a prefix of at least 1,024 tokens,
// counted as characters / 4; 5-minute or 1-hour TTL; readable once the first
// response using it has begun).
//   A. a design document of ~14k tokens reviewed by a category rubric of 8
//      categories (`review`, analytic);
//   B. 40 dataset items graded by 4 criteria with 6 calibration anchors each
//      (`eval --no-cache`);
//   C. 10 fixed responses graded by 3 criteria (4 anchors each) through a
//      jury of 3, in a matrix of two judge models (`eval --no-cache`): each
//      model's rubric and candidate are written once and read by the other
//      jurors and criteria.
// Prints billed input ÷ naive input for each, where naive is every input token
// at the base price and billed = uncached + 1.25 × 5-minute writes + 2 × 1-hour
// writes + 0.1 × reads. Target: ≤ 0.30 on each. The billed tokens are printed
// too: a layout that sends the whole rubric with every call has a larger naive
// input than one that sends one criterion, so compare billed across layouts.
// Beside them, what `eval --explain` projects for the same suite (its naive
// and billed input tokens, from the same cache minimums the CLI passes in),
// and projected ÷ billed: the preview should be within 10% of the stand-in.
// Each workload runs again with `--batch` (Message Batches through the
// stand-in's batch endpoints, same cache emulation): every token at half the
// price, so billed ÷ naive should halve again (naive stays the standard price).
//   --cli DIR    run the CLI of another checkout (e.g. main's, for a before figure)

const TARGET = 0.3;
/** Message Batches bill half the standard price, cache writes and reads included. */
const BATCH_FACTOR = 0.5;
/** How far the preview's projection of billed input may stray from what the stand-in billed. */
const PROJECTION_TOLERANCE = 0.1;
/** The CLI's default --concurrency: it chooses the TTL, in the run and in the projection. */
const CONCURRENCY = 8;
const MODEL = "claude-sonnet-4-5";
const MIN_TOKENS = 1024;
const LATENCY_MS = 40;

const { values } = parseArgs({ options: { cli: { type: "string" } }, strict: true });
// npm runs scripts at the package root: its CLI, unless --cli names another checkout.
const cliRoot = path.resolve(values.cli ?? process.cwd());
const CLI_BIN = path.join(cliRoot, "bin/rubric-studio.mjs");

// Deterministic filler text: distinct sentences, so no two sections are alike.
const WORDS =
  "service queue latency shard replica tenant quota budget schema index cache lease worker backlog audit rollout".split(
    " ",
  );
function sentence(seed: number): string {
  const pick = (k: number) => WORDS[(seed * 7 + k * 13) % WORDS.length];
  return `The ${pick(1)} ${pick(2)} keeps ${seed % 97} ${pick(3)} entries per ${pick(4)} and hands the ${pick(5)} to the ${pick(6)} within ${(seed % 40) + 5} ms.`;
}
function paragraph(seed: number, sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => sentence(seed * 31 + i)).join(" ");
}

function designDocument(): string {
  // ~56,000 characters: ~14k tokens.
  const sections = Array.from(
    { length: 50 },
    (_, s) =>
      `## ${s + 1}. Component ${s + 1}\n\n${paragraph(s + 1, 5)}\n\n${paragraph(s + 101, 5)}\n`,
  );
  return `# Design: multi-tenant job scheduler\n\n${sections.join("\n")}`;
}

function workloadA(): string {
  const categories = [
    "problem",
    "goals",
    "architecture",
    "data",
    "scaling",
    "failure",
    "security",
    "rollout",
  ].map(
    (id, i) =>
      `      - { id: ${id}, name: ${id[0]!.toUpperCase()}${id.slice(1)}, description: "The document covers ${id}: ${sentence(i + 500)}" }`,
  );
  return [
    `judge: { model: ${MODEL} }`,
    "rubrics:",
    "  design:",
    "    name: Design review",
    "    review_type: design",
    "    evaluation_type: analytic",
    "    categories:",
    ...categories,
    "evals:",
    "  - name: scheduler design",
    "    document: { file: docs/design.md, id: DES-7, title: Job scheduler }",
    "    rubric: { ref: design }",
    "",
  ].join("\n");
}

function workloadB(): string {
  const criteria = ["correct", "grounded", "complete", "clear"].map((name, c) => {
    const anchors = Array.from(
      { length: 6 },
      (_, a) =>
        `          - { response: "${paragraph(c * 10 + a + 700, 2)}", score: ${(a / 5).toFixed(2)} }`,
    );
    return [
      `      - name: ${name}`,
      `        description: "The answer is ${name}: ${sentence(c + 900)}"`,
      "        examples:",
      ...anchors,
    ].join("\n");
  });
  const items = Array.from(
    { length: 40 },
    (_, i) =>
      `      - { id: item-${i + 1}, input: "How does component ${i + 1} behave under load?", expected_output: "${paragraph(i + 1000, 4)}" }`,
  );
  return [
    `judge: { model: ${MODEL} }`,
    "datasets:",
    "  questions:",
    "    items:",
    ...items,
    "evals:",
    "  - name: answers",
    "    candidates: { dataset: questions }",
    "    rubric:",
    "      threshold: 0.5",
    "      criteria:",
    ...criteria,
    "",
  ].join("\n");
}

function workloadC(): string {
  const criteria = ["accurate", "complete", "concise"].map((name, c) => {
    const anchors = Array.from(
      { length: 4 },
      (_, a) =>
        `          - { response: "${paragraph(c * 10 + a + 1200, 3)}", score: ${(a / 3).toFixed(2)} }`,
    );
    return [
      `      - name: ${name}`,
      `        description: "The summary is ${name}: ${sentence(c + 1300)}"`,
      "        examples:",
      ...anchors,
    ].join("\n");
  });
  const evals = Array.from({ length: 10 }, (_, e) =>
    [
      `  - name: release summary ${e + 1}`,
      `    prompt: "Summarize release ${e + 1}."`,
      `    response: "${paragraph(e + 1400, 12)}"`,
      "    rubric: { ref: summary }",
      "    matrix: { models: [claude-sonnet-4-5, claude-sonnet-4] }",
    ].join("\n"),
  );
  return [
    `judge: { model: ${MODEL}, jury: { size: 3 } }`,
    "rubrics:",
    "  summary:",
    "    threshold: 0.5",
    "    criteria:",
    ...criteria,
    "evals:",
    ...evals,
    "",
  ].join("\n");
}

function reply(request: FakeRequest): FakeReply {
  const category = JSON.stringify(request.body.tools ?? []).includes("findings");
  return category
    ? { toolInput: { reasoning: "covered", score: "pass", evidence: [], findings: [] } }
    : { verdict: { reasoning: "met", score: 0.9 } };
}

function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}

interface Measured {
  name: string;
  calls: number;
  usage: InputUsage;
  ratio: number;
  billed: number;
  warnings: string[];
  projected: { naive: number; billed: number };
}

/** What `eval --explain` projects for the suite: naive and billed input tokens (billed weighted as the stand-in bills them). */
async function project(
  file: string,
  cwd: string,
  judgeCache: boolean,
): Promise<{ naive: number; billed: number }> {
  const loaded = await readSuiteFile({ file, cwd });
  if (!loaded.ok) throw new Error(`${file} does not load: ${JSON.stringify(loaded.issues)}`);
  const plan = explainPlan(
    planSuite({ suite: loaded.value, defaultModel: MODEL }),
    () => undefined,
    { cacheMinimumOf, concurrency: CONCURRENCY, judgeCache },
  );
  const { input, write5m, write1h, read } = plan.totals.cacheInput;
  return {
    naive: plan.totals.inputTokens,
    billed: input + 1.25 * write5m + 2 * write1h + 0.1 * read,
  };
}

async function measure(
  name: string,
  files: Record<string, string>,
  args: string[],
): Promise<Measured> {
  const api = await startFakeMessagesApi({
    promptCache: { minTokens: MIN_TOKENS },
    latencyMs: LATENCY_MS,
    respond: reply,
  });
  const dir = await mkdtemp(path.join(tmpdir(), "rubric-cost-"));
  try {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const projected = await project(
      args[args.indexOf("--config") + 1]!,
      dir,
      !args.includes("--no-cache"),
    );
    const batched = args.includes("--batch");
    if (batched) projected.billed *= BATCH_FACTOR;
    const run = await runCli(args, dir, {
      ANTHROPIC_API_KEY: "sk-ant-bench",
      ANTHROPIC_BASE_URL: api.url,
      NO_COLOR: "1",
    });
    if (run.code !== 0) throw new Error(`${name}: the CLI exited ${run.code}\n${run.stderr}`);
    const usage = batched ? api.batchUsage() : api.usage();
    const naive = usage.input + usage.cacheWrite + usage.cacheRead;
    const billed =
      (batched ? BATCH_FACTOR : 1) *
      (usage.input +
        1.25 * (usage.cacheWrite - usage.cacheWrite1h) +
        2 * usage.cacheWrite1h +
        0.1 * usage.cacheRead);
    const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning:"));
    return {
      name,
      calls: api.requests.length,
      usage,
      ratio: billed / naive,
      billed,
      warnings,
      projected,
    };
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const A = { "review.yaml": workloadA(), "docs/design.md": designDocument() };
const B = { "suite.yaml": workloadB() };
const C = { "suite.yaml": workloadC() };
const reviewA = ["review", "--config", "review.yaml", "--output", "out.json"];
const evalB = [
  "eval",
  "--config",
  "suite.yaml",
  "--no-cache",
  "--reporter",
  "json",
  "--output",
  "out.json",
];
const BATCH = ["--batch", "--poll-interval", "0.05"];
const results = [
  await measure("A  design doc ~14k tokens, 8 categories (review, analytic)", A, reviewA),
  await measure("B  40 items x 4 criteria x 6 anchors (eval --no-cache)", B, evalB),
  await measure("C  10 responses x 3 criteria, jury of 3, 2-model matrix", C, evalB),
  await measure("A  the same, review --batch", A, [...reviewA, ...BATCH]),
  await measure("B  the same, eval --no-cache --batch", B, [...evalB, ...BATCH]),
  await measure("C  the same, eval --no-cache --batch", C, [...evalB, ...BATCH]),
];

console.log(
  `CLI: ${cliRoot}; judge ${MODEL}; stand-in cache minimum ${MIN_TOKENS} tokens (chars/4), latency ${LATENCY_MS} ms`,
);
console.log(
  "workload                                                      calls   uncached     writes      reads     billed   billed/naive",
);
for (const r of results) {
  const cells = [
    r.calls,
    r.usage.input,
    r.usage.cacheWrite,
    r.usage.cacheRead,
    Math.round(r.billed),
  ].map((n, i) => String(n).padStart(i === 0 ? 5 : 10));
  const target = r.name.includes("--batch") ? TARGET * BATCH_FACTOR : TARGET;
  console.log(
    `${r.name.padEnd(60)} ${cells.join(" ")}   ${r.ratio.toFixed(2).padStart(6)} ${r.ratio <= target ? "ok" : `over ${target}`}`,
  );
  for (const warning of r.warnings) console.log(`   ${warning}`);
}
console.log("\nthe preview (eval --explain) against the stand-in, input tokens");
console.log(
  "workload                                                    naive: projected     billed   billed: projected     billed   projected/billed",
);
const close = (r: Measured) => Math.abs(r.projected.billed / r.billed - 1) <= PROJECTION_TOLERANCE;
for (const r of results) {
  const naive = r.usage.input + r.usage.cacheWrite + r.usage.cacheRead;
  const cells = [r.projected.naive, naive, r.projected.billed, r.billed].map((n) =>
    String(Math.round(n)).padStart(10),
  );
  console.log(
    `${r.name.padEnd(60)} ${cells[0]} ${cells[1]}           ${cells[2]} ${cells[3]}   ${(r.projected.billed / r.billed).toFixed(2).padStart(6)} ${close(r) ? "ok" : `off by more than ${PROJECTION_TOLERANCE * 100}%`}`,
  );
}
console.log("\nwith --batch against without, billed input");
for (const [plain, batched] of [
  [results[0]!, results[3]!],
  [results[1]!, results[4]!],
  [results[2]!, results[5]!],
] as const) {
  console.log(
    `${plain.name.slice(0, 2)} batched ÷ standard: ${(batched.billed / plain.billed).toFixed(2)} (billed/naive ${plain.ratio.toFixed(2)} -> ${batched.ratio.toFixed(2)})`,
  );
}
process.exitCode = results.every(
  (r) => r.ratio <= (r.name.includes("--batch") ? TARGET * BATCH_FACTOR : TARGET) && close(r),
)
  ? 0
  : 1;
