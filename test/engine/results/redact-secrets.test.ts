import { describe, expect, it } from "vitest";
import {
  REDACTED,
  applyPatterns,
  mayHoldSecret,
  redactDeep,
  redactSecrets,
} from "../../../lib/engine/results/redact-secrets";
import { buildSampleReport, sampleResults } from "../../support/sample-report";

// Fake credentials are assembled at run time so that no scanner mistakes this
// file for a leak.
const body = (length: number, alphabet = "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8") =>
  Array.from({ length }, (_, i) => alphabet[i % alphabet.length]).join("");

const SECRETS: [string, string][] = [
  ["Anthropic key", `sk-ant-api03-${body(40)}`],
  ["OpenAI-style key", `sk-${body(48)}`],
  ["OpenAI project key", `sk-proj-${body(40)}`],
  ["AWS access key id", `AKIA${body(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`],
  ["GitHub personal token", `ghp_${body(36)}`],
  ["GitHub OAuth token", `gho_${body(36)}`],
  ["GitHub app token", `ghs_${body(36)}`],
  ["GitHub fine-grained token", `github_pat_${body(22)}_${body(59)}`],
  ["Slack bot token", `xoxb-${body(12, "0123456789")}-${body(24)}`],
  ["Slack user token", `xoxp-${body(12, "0123456789")}-${body(24)}`],
  ["JWT", `eyJ${body(20)}.eyJ${body(30)}.${body(43)}`],
];

describe("redactSecrets", () => {
  for (const [kind, secret] of SECRETS) {
    it(`redacts a ${kind} inside prose`, () => {
      const out = redactSecrets(`The tool printed ${secret} and then stopped.`);
      expect(out).toBe(`The tool printed ${REDACTED} and then stopped.`);
    });
  }

  it("redacts a bearer token but keeps the scheme", () => {
    expect(redactSecrets(`Authorization: Bearer ${body(32)}.${body(10)}`)).toBe(
      `Authorization: Bearer ${REDACTED}`,
    );
    expect(redactSecrets("curl -H 'authorization: bearer abc123def456'")).toBe(
      `curl -H 'authorization: bearer ${REDACTED}'`,
    );
  });

  it("redacts a whole PEM private key block, and a truncated one", () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body(64)}\n${body(64)}\n-----END RSA PRIVATE KEY-----`;
    expect(redactSecrets(`key:\n${pem}\ndone`)).toBe(`key:\n${REDACTED}\ndone`);
    expect(redactSecrets(`-----BEGIN PRIVATE KEY-----\n${body(64)}\n`)).toBe(REDACTED);
    expect(redactSecrets("-----BEGIN CERTIFICATE-----")).toBe("-----BEGIN CERTIFICATE-----");
  });

  it("redacts the value of key=value and key: value pairs whose key names a secret, keeping the key", () => {
    const cases: [string, string][] = [
      ["api_key=abc123xyz", `api_key=${REDACTED}`],
      ["APIKEY: hunter22", `APIKEY: ${REDACTED}`],
      ["x-api-key: 0f9e8d7c", `x-api-key: ${REDACTED}`],
      ['{"client_secret": "s3cr3t value"}', `{"client_secret": "${REDACTED}"}`],
      ["password='correct horse'", `password='${REDACTED}'`],
      ["passwd=letmein", `passwd=${REDACTED}`],
      ["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI", `AWS_SECRET_ACCESS_KEY=${REDACTED}`],
      ["private_key: abcdef0123", `private_key: ${REDACTED}`],
      [
        "https://api.example.com/v1?token=abc123&page=2",
        `https://api.example.com/v1?token=${REDACTED}&page=2`,
      ],
      ["refresh_token = 9f8e7d6c5b", `refresh_token = ${REDACTED}`],
    ];
    for (const [input, expected] of cases) expect(redactSecrets(input)).toBe(expected);
  });

  it("leaves prose, short words and token counts alone", () => {
    const prose = [
      "The judge counted every token in the answer and found it concise.",
      "Please reset your password from the settings page if you forgot it.",
      "She kept the secret of the recipe for years; the bearer of the letter waited.",
      "max_tokens: 1024, input_tokens: 812, token_count: 3",
      "The task-runner and the risk-assessment skill were sk- prefixed? No.",
      "An API key is required; ask your admin for one.",
      "The 2.3.0 release added per-tenant rate limits.",
    ];
    for (const text of prose) expect(redactSecrets(text)).toBe(text);
  });

  // Issue 13 item 9: a live transcript quotes tool output as JSON, so the
  // letter before a key is often an escape's (`\n`, `\u003d`, `%0A`).
  it("redacts every kind of key inside JSON-escaped text, whatever escape comes before it", () => {
    for (const [kind, secret] of SECRETS) {
      for (const before of ["\\n", "\\t", "\\r", "\\u003d", "\\\\", '\\"', " "]) {
        const text = `{"stdout": "x${before}${secret}\\n", "exit": 0}`;
        const out = redactSecrets(text);
        expect(out, `${kind} after ${before}`).not.toContain(secret);
        expect(out, `${kind} after ${before}`).toContain(REDACTED);
      }
    }
  });

  it("redacts keys in URLs and query strings, plain and percent-encoded", () => {
    const key = SECRETS[0]![1];
    const github = SECRETS[4]![1];
    const cases = [
      `https://api.example.com/v1/messages?key=${key}&page=2`,
      `https://api.example.com/v1/messages?q=x%0A${key}`,
      `https://api.example.com/v1/messages?k%3D${github}`,
      `https://user:${github}@git.example.com/repo.git`,
      `GET /callback?code=1&access_token=${github}#state`,
      `https://example.com/?redirect=https%3A%2F%2Fx.example%2F%3Ftoken%3D${github}`,
    ];
    for (const text of cases) {
      const out = redactSecrets(text);
      expect(out, text).not.toContain(key);
      expect(out, text).not.toContain(github);
    }
    expect(redactSecrets("https://api.example.com/v1?token=abc123&page=2")).toBe(
      `https://api.example.com/v1?token=${REDACTED}&page=2`,
    );
  });

  it("redacts secret values of JSON-escaped key/value pairs, keeping the escapes", () => {
    expect(redactSecrets('{"result": "{\\"api_key\\": \\"abc123xyz\\", \\"n\\": 1}"}')).toBe(
      `{"result": "{\\"api_key\\": \\"${REDACTED}\\", \\"n\\": 1}"}`,
    );
    expect(redactSecrets("x\\npassword=hunter22\\n")).not.toContain("hunter22");
  });

  it("is idempotent", () => {
    const once = redactSecrets(`api_key=${SECRETS[0]?.[1]} and Bearer ${body(30)}`);
    expect(redactSecrets(once)).toBe(once);
  });
});

describe("the one-pass check before the patterns", () => {
  it("lets no secret through: on texts built from every pattern's parts, skipping is never a change", () => {
    // Pieces of every pattern (prefixes, keys, separators, bodies, escapes) and
    // of prose, joined at random: whenever the patterns change a text, the
    // check must have said it may hold a secret, so the fast path never skips one.
    const pieces = [
      ...SECRETS.map(([, secret]) => secret),
      "sk-",
      "SK-ANT-",
      "Bearer ",
      "bearer\t",
      "AKIA",
      "asia",
      "ghp_",
      "github_pat_",
      "xoxb-",
      "eyJ",
      ".",
      "api_key",
      "X-Api-Key",
      "passwd",
      "Password",
      "secret",
      "token",
      "access-key",
      "private_key",
      "=",
      ": ",
      '"',
      "'",
      "\\n",
      "%0A",
      "\\u003d",
      "-----BEGIN RSA PRIVATE KEY-----",
      "-----END RSA PRIVATE KEY-----",
      body(24),
      body(8, "0123456789"),
      "hello",
      " ",
      "\n",
      "{",
      "}",
      "&",
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let changed = 0;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 6) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
      const full = applyPatterns(text);
      if (full !== text) {
        changed++;
        expect(mayHoldSecret(text), text).toBe(true);
      }
      expect(redactSecrets(text), text).toBe(full);
    }
    // The texts do exercise the patterns, so the property is not vacuous.
    expect(changed).toBeGreaterThan(500);
  });

  it("skips text that holds no trigger, and catches a trigger whatever its case", () => {
    expect(mayHoldSecret("The answer states the total and the due date.")).toBe(false);
    expect(mayHoldSecret("criterion 3 scored 0.75 (inputTokens 812)")).toBe(true);
    expect(mayHoldSecret("BEARER abc")).toBe(true);
    expect(mayHoldSecret("see SK-ant-")).toBe(true);
  });
});

describe("redactDeep on a clean report", () => {
  it("returns a report with nothing to redact as it is, and copies only the parts that change", () => {
    const report = buildSampleReport({ results: sampleResults(), suite: { file: "suite.yml" } });
    expect(redactDeep(report)).toBe(report);
    const token = `sk-ant-api03-${body(40)}`;
    const one = { ...report, suite: { ...report.suite, description: `key ${token}` } };
    const before = structuredClone(one);
    const redacted = redactDeep(one);
    expect(redacted.suite.description).toBe(`key ${REDACTED}`);
    expect(one).toEqual(before);
    // The results held nothing to redact: shared, not copied.
    expect(redacted.results).toBe(one.results);
  });
});

describe("redactDeep on a report", () => {
  it("redacts every string, however deep, and returns a copy", () => {
    const secret = `sk-ant-api03-${body(40)}`;
    const results = sampleResults().map((r) => ({
      ...r,
      reason: `saw ${secret}`,
      note: secret,
      candidate: { ...r.candidate, response: `key is ${secret}` },
      criteria: r.criteria.map((c) => ({
        ...c,
        reasoning: secret,
        evidence: secret,
        verdicts: c.verdicts.map((v) => ({
          ...v,
          reasoning: secret,
          error: `bad reply ${secret}`,
        })),
      })),
      judges: r.judges.map((j) => ({
        ...j,
        error: secret,
        treePath: [{ ask: "?", answer: "yes" as const, score: 1, reasoning: secret }],
      })),
      tree: {
        path: [{ ask: secret, answer: "no" as const, score: 0, reasoning: secret }],
        leaf: { score: 0, reason: secret },
      },
    }));
    const report = buildSampleReport({
      results,
      suite: { file: "suite.yml", description: secret },
    });
    const before = structuredClone(report);

    const redacted = redactDeep(report);

    expect(JSON.stringify(redacted)).not.toContain(secret);
    expect(redacted.results[1]?.criteria[0]?.verdicts[0]?.error).toBe(`bad reply ${REDACTED}`);
    expect(redacted.results[0]?.judges[0]?.treePath?.[0]?.reasoning).toBe(REDACTED);
    expect(redacted.results[0]?.candidate.response).toBe(`key is ${REDACTED}`);
    expect(report).toEqual(before);
    expect(redacted).not.toBe(report);
    expect(redacted.results[0]).not.toBe(report.results[0]);
    // Numbers, booleans and nulls are carried over as they were.
    expect(redacted.summary).toEqual(report.summary);
    expect(redacted.results.map((r) => [r.score, r.vacuous, r.cell])).toEqual(
      report.results.map((r) => [r.score, r.vacuous, r.cell]),
    );
  });
});
