import type { CriterionResult, EvalResult, EvalStatus } from "../lib/engine/results/report";

// Synthetic run history for `npm run bench:store`: EvalResults shaped and
// sized like the engine's (criteria with reasoning and evidence, verdicts,
// per-call records), with a realistic mix of outcomes. Deterministic: the
// same seed gives the same data.

export const JUDGE_MODELS = [
  "claude-sonnet-4-5",
  "claude-haiku-4-5",
  "claude-opus-4-1",
  "claude-sonnet-4-6",
];
export const SUITE_FILE = "suites/support-assistant.yml";
const TEMPLATE_VERSION = "rubric-v3";
const PRICE_PER_MTOK: Record<string, [number, number]> = {
  "claude-sonnet-4-5": [3, 15],
  "claude-haiku-4-5": [1, 5],
  "claude-opus-4-1": [15, 75],
  "claude-sonnet-4-6": [3, 15],
};

const AREAS = [
  "billing",
  "refunds",
  "onboarding",
  "security",
  "api limits",
  "release notes",
  "data export",
  "sso setup",
  "invoices",
  "outage comms",
];
const TASKS = [
  "explains a prorated refund",
  "states the current rate limit",
  "refuses to share another tenant's data",
  "summarizes the 2.3 changelog",
  "walks through SAML configuration",
  "apologizes for the outage and gives an ETA",
  "links the right help-center article",
  "answers in the customer's language",
  "escalates a chargeback dispute",
  "keeps the answer under 120 words",
];
const CRITERIA = [
  "states the version",
  "cites the changelog",
  "invents no figures",
  "answers the question asked",
  "uses the customer's name",
  "gives a next step",
  "stays polite under pressure",
  "avoids legal advice",
  "mentions the deadline",
  "links a help article",
  "keeps to the policy",
  "no internal jargon",
];
const OPENINGS = ["The answer", "The response", "The assistant's reply", "The candidate"];
const FINDINGS = [
  "names the 2.3.0 release explicitly and ties the change to it",
  "quotes the refund window of 14 days from the billing policy",
  "mentions per-tenant rate limits but not the new burst allowance",
  "gives a figure (40% lower latency) that appears nowhere in the release notes",
  "addresses the customer by name and restates the problem before answering",
  "ends with a concrete next step: open Settings → Billing and press Request refund",
  "stays courteous although the customer used strong language twice",
  "declines to interpret the contract and points to the account manager instead",
  "omits the deadline of March 31 that the question asked about",
  "links the help-center article on SAML single sign-on",
];
const VERDICT_TAILS = [
  "This satisfies the criterion.",
  "That is enough for a full score.",
  "Partly met: the key detail is missing.",
  "This does not meet the criterion.",
  "The evidence is clear and verbatim.",
];

/** The same seeded generator the statistics use, so the bench's data is reproducible. */
export { seededRandom as createRandom } from "../lib/stats/bootstrap";

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)]!;
const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function evalNameOf(index: number): string {
  return `${AREAS[index % AREAS.length]}: ${TASKS[Math.floor(index / AREAS.length) % TASKS.length]} #${index + 1}`;
}

export function resultKeyOf(evalName: string, model: string): string {
  return `${evalName} [model=${model}, prompt=1]`;
}

/**
 * One graded matrix cell (an eval × a judge model) with `criteria` criteria.
 * `drift` shifts its scores, so that a trend across runs is not flat.
 */
export function syntheticResult(input: {
  evalIndex: number;
  model: string;
  criteria: number;
  drift: number;
  random: () => number;
}): EvalResult {
  const { random, model } = input;
  const evalName = evalNameOf(input.evalIndex);
  const roll = random();
  // About 90% graded (passed or failed by their score), 4% judge errors, 4% deferred, 2% skipped by the budget.
  const graded = roll < 0.9;
  const ungraded: EvalStatus = roll < 0.94 ? "judge_error" : roll < 0.98 ? "deferred" : "skipped";
  const threshold = 0.7;
  const base = 0.55 + ((input.evalIndex * 37) % 40) / 100 + input.drift;
  const prompt = `Customer ticket #${4000 + input.evalIndex}: ${TASKS[input.evalIndex % TASKS.length]}?`;
  const response = `Hi Dana, thanks for reaching out. ${pick(random, FINDINGS)}. ${pick(random, FINDINGS)}. Let me know if anything else comes up.`;

  const criteria: CriterionResult[] = [];
  for (let c = 0; c < input.criteria; c++) {
    const skipped = graded && random() < 0.05;
    const score =
      !graded || skipped ? null : round(Math.min(1, Math.max(0, base + (random() - 0.5) * 0.5)), 2);
    const required = c === 0;
    const guard = c === 2;
    const passed = score === null ? null : score >= threshold;
    const reasoning =
      score === null
        ? ""
        : `${pick(random, OPENINGS)} ${pick(random, FINDINGS)}. ${pick(random, VERDICT_TAILS)}`;
    const evidence =
      score === null ? undefined : response.slice(20, 60 + Math.floor(random() * 40));
    criteria.push({
      name: CRITERIA[c % CRITERIA.length]! + (c >= CRITERIA.length ? ` (${c + 1})` : ""),
      description: `Judges whether the answer ${CRITERIA[c % CRITERIA.length]}, as the support policy asks.`,
      weight: c < 3 ? 2 : 1,
      required,
      guard,
      threshold,
      status:
        !graded && ungraded === "judge_error"
          ? "judge_error"
          : score === null
            ? "skipped"
            : "graded",
      ...(skipped ? { skippedReason: 'when: { contains: "refund" } did not match' } : {}),
      score,
      passed,
      reasoning,
      ...(evidence ? { evidence, evidenceFound: true } : {}),
      gates:
        required && passed === false
          ? ["required_failed"]
          : guard && passed === false
            ? ["guard_triggered"]
            : [],
      verdicts:
        score === null
          ? []
          : [
              {
                judge: model,
                model,
                juror: 1,
                score,
                reasoning,
                ...(evidence ? { evidence } : {}),
              },
            ],
    });
  }
  const scored = criteria.filter((c) => c.score !== null);
  const score =
    graded && scored.length
      ? round(scored.reduce((s, c) => s + c.score!, 0) / scored.length, 4)
      : null;
  const outcome: EvalStatus = !graded
    ? ungraded
    : score !== null && score >= threshold && criteria[0]?.passed !== false
      ? "passed"
      : "failed";
  const calls = graded || outcome === "judge_error" ? input.criteria : 0;
  const [inPrice, outPrice] = PRICE_PER_MTOK[model] ?? [3, 15];
  const usage = {
    input: calls * 900,
    output: calls * 120,
    cacheRead: calls * 700,
    cacheWrite: calls > 0 ? 1200 : 0,
  };
  const costUsd = round(
    (usage.input * inPrice + usage.output * outPrice + usage.cacheRead * inPrice * 0.1) / 1e6,
    6,
  );
  const latencyMs = calls * (800 + Math.floor(random() * 1600));
  return {
    id: resultKeyOf(evalName, model),
    name: `${evalName} (${model}, prompt 1)`,
    eval: evalName,
    cell: { model, prompt, promptIndex: 1 },
    status: outcome,
    vacuous: false,
    score,
    threshold,
    scale: { kind: "unit" },
    display: score === null ? "–" : score.toFixed(2),
    thresholdDisplay: "0.70",
    reason:
      outcome === "judge_error"
        ? "the judge returned no usable verdict after 3 attempts"
        : score === null
          ? "not graded"
          : outcome === "passed"
            ? `scored ${score.toFixed(2)}, at or above the threshold 0.70`
            : score < threshold
              ? `scored ${score.toFixed(2)}, below the threshold 0.70`
              : `required criterion "${criteria[0]!.name}" failed`,
    ...(outcome === "deferred"
      ? { note: "no model API key (ANTHROPIC_API_KEY is not set); the eval was deferred" }
      : {}),
    ...(outcome === "skipped"
      ? { note: "the --max-cost budget of $5.00 would be exceeded by this cell" }
      : {}),
    rubric: { kind: "criteria", source: { type: "inline" } },
    judge: { models: [model], jurySize: 1, consensus: 1 },
    candidate: { source: "fixed", server: "support", prompt, response },
    criteria,
    judges: [
      {
        judge: model,
        model,
        juror: 1,
        score,
        passed: score === null ? null : outcome === "passed",
      },
    ],
    gates: criteria
      .filter((c) => c.gates.length)
      .map(
        (c) =>
          `criterion "${c.name}" ${c.gates[0] === "required_failed" ? "is required and failed" : "triggered its guard"}`,
      ),
    usage,
    costUsd,
    judgeCalls: calls,
    latencyMs,
    calls: Array.from({ length: calls }, () => ({
      model,
      templateVersion: TEMPLATE_VERSION,
      attempts: 1,
      latencyMs: 800 + Math.floor(random() * 1600),
      usage: { input: 900, output: 120, cacheRead: 700, cacheWrite: 0 },
      costUsd: round((900 * inPrice + 120 * outPrice) / 1e6, 6),
    })),
    location: { file: SUITE_FILE, line: 12 + input.evalIndex * 9, column: 5 },
  };
}

/** A suite file of `evals` evals, for the stored suite version. */
export function suiteYaml(evals: number, criteria: number): string {
  const lines = [
    `description: Support assistant, ${evals} evals`,
    "judge: { model: claude-sonnet-4-5 }",
    `matrix: { models: [${JUDGE_MODELS.join(", ")}] }`,
    "evals:",
  ];
  for (let e = 0; e < evals; e++) {
    lines.push(
      `  - name: "${evalNameOf(e)}"`,
      `    prompt: "Customer ticket #${4000 + e}"`,
      "    rubric:",
      "      threshold: 0.7",
      "      criteria:",
    );
    for (let c = 0; c < criteria; c++)
      lines.push(
        `        - { name: "${CRITERIA[c % CRITERIA.length]}", description: "Judges whether the answer ${CRITERIA[c % CRITERIA.length]}." }`,
      );
  }
  return `${lines.join("\n")}\n`;
}
