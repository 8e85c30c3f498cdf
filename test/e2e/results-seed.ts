import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCli } from "../support/run-cli";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
  type FakeReply,
  type FakeRespond,
} from "../support/fake-messages-api";

// Seeds the e2e database the way a user would: the real CLI (`eval --store`)
// grades a suite against the stand-in Messages API, and stores the run in the
// dashboard's embedded database, found through the shared data folder.

export const XSS_NAME = `<script>alert("name")</script><img src=x onerror=alert(1)> hostile eval`;
export const XSS_REASONING = `<script>alert("reasoning")</script><img src=x onerror=alert(2)> The total of $120.00 is stated.`;
export const XSS_RESPONSE = `Invoice 42 totaled $120.00. <img src=x onerror=alert(3)><script>alert("candidate")</script>`;
export const EVIDENCE = "totaled $120.00";
export const FILLERS = 60;
/** A suite's `providers:` declaring `nokey`, whose key is never set: an eval judged by `nokey:small` defers. */
export const KEYLESS_PROVIDERS = `providers:
  nokey: { type: openai, base_url: "http://127.0.0.1:9/v1", api_key_env: RS_E2E_UNSET_KEY }
`;
/** Fillers that fail in the second run (and passed in the first). */
export const REGRESSING = 5;

/** A suite with a hostile criteria eval, a decision tree, a 2×2 matrix, one eval the judge cannot answer, and fillers for paging. */
export function suiteYaml(tag: string): string {
  const lines = [
    "evals:",
    `  - name: ${JSON.stringify(XSS_NAME)}`,
    `    prompt: "What did invoice 42 total?"`,
    `    response: ${JSON.stringify(XSS_RESPONSE)}`,
    "    rubric:",
    "      require_evidence: true",
    "      criteria:",
    `        - { name: correct total, description: "States the invoice total (${tag}).", required: true, weight: 2 }`,
    `        - { name: polite, description: "Polite tone (${tag})." }`,
    `  - name: release tree`,
    `    response: "The 2.3.0 release added per-tenant rate limits."`,
    "    rubric:",
    "      tree:",
    `        ask: "Does the answer name a release version? (${tag})"`,
    `        yes: { score: 1.0, reason: "names the version" }`,
    `        no: { score: 0.0, reason: "no version" }`,
    `  - name: matrix summary`,
    `    response: "Matrix answer."`,
    `    rubric: "Summarises the release (${tag})."`,
    "    matrix:",
    "      models: [claude-sonnet-4-6, claude-haiku-4-5]",
    `      prompts: ["Summarize.", "Summarize in one line."]`,
    `  - name: broken judge`,
    `    response: "Unanswerable."`,
    `    rubric: "Anything (${tag})."`,
  ];
  for (let i = 1; i <= FILLERS; i++) {
    lines.push(
      `  - name: filler ${String(i).padStart(2, "0")}`,
      `    response: "Filler answer ${i}."`,
      `    rubric: "Answers filler ${i} (${tag})."`,
      "    threshold: 0.5",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The candidate a judge request grades (the prompt puts it last, in this tag). */
function candidateOf(request: { user: string }): string {
  return /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(request.user)?.[1] ?? "";
}

function reply(candidate: string, round: number, system: string): FakeReply {
  // A repair turn carries no candidate; only the broken judge's call is ever repaired, and it stays broken.
  if (candidate === "Unanswerable." || candidate === "") return { toolInput: { nonsense: true } };
  if (candidate === XSS_RESPONSE)
    return { verdict: { reasoning: XSS_REASONING, score: 0.9, evidence: EVIDENCE } };
  const filler = /^Filler answer (\d+)\.$/.exec(candidate);
  if (filler && round === 2 && Number(filler[1]) <= REGRESSING)
    return { verdict: { reasoning: "Misses the point.", score: 0.2 } };
  // The matrix's haiku cells score lower, so the heatmap has two colours.
  if (candidate === "Matrix answer." && system.includes("haiku"))
    return { verdict: { reasoning: "Partly.", score: 0.4 } };
  return { verdict: { reasoning: `Fine in round ${round}.`, score: round === 2 ? 0.8 : 0.9 } };
}

export interface Seeded {
  runIds: string[];
  suiteName: string;
  close(): Promise<void>;
}

/** Stores `rounds` runs of the suite (1 or 2); round 2 regresses the first fillers. */
export async function seedRuns(input: { tag: string; rounds: number }): Promise<Seeded> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-suite-"));
  const file = `${input.tag}.yaml`;
  await writeFile(path.join(dir, file), suiteYaml(input.tag));
  let round = 1;
  const api: FakeMessagesApi = await startFakeMessagesApi({
    respond: (r) => reply(candidateOf(r), round, `${r.system}\n${JSON.stringify(r.body.model)}`),
  });
  const runIds: string[] = [];
  try {
    for (; round <= input.rounds; round++)
      runIds.push(await storeRun({ dir, file, apiUrl: api.url }));
  } finally {
    await api.close();
  }
  return { runIds, suiteName: file, close: () => rm(dir, { recursive: true, force: true }) };
}

/** `eval --store` of the suite file in `dir` against the stand-in at `apiUrl` (asking afresh unless `cache`): the stored run's id. */
export async function storeRun(input: {
  dir: string;
  file: string;
  apiUrl: string;
  cache?: boolean;
}): Promise<string> {
  const run = await runCli(
    [
      "eval",
      "--config",
      input.file,
      "--store",
      ...(input.cache ? [] : ["--no-cache"]),
      "--reporter",
      "json",
    ],
    {
      cwd: input.dir,
      timeoutMs: 120_000,
      env: {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: input.apiUrl,
        RUBRIC_STUDIO_DATA_DIR: process.env.E2E_DATA_DIR,
      },
    },
  );
  const id = /Storing run ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
  if (!id) throw new Error(`the CLI stored no run (exit ${run.code}):\n${run.stderr}`);
  return id;
}

/** Stores one run of `yaml` (as `<tag>.yaml`), graded by a stand-in that answers with `respond`. */
export async function seedSuite(input: {
  tag: string;
  yaml: string;
  respond: FakeRespond;
}): Promise<{ runId: string; suiteName: string; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rs-e2e-suite-"));
  const file = `${input.tag}.yaml`;
  await writeFile(path.join(dir, file), input.yaml);
  const api = await startFakeMessagesApi({ respond: input.respond });
  try {
    return {
      runId: await storeRun({ dir, file, apiUrl: api.url }),
      suiteName: file,
      close: () => rm(dir, { recursive: true, force: true }),
    };
  } finally {
    await api.close();
  }
}
