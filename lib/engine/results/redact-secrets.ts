// Judges quote candidates, and candidates (agent runs especially) can echo
// credentials they saw in tool results. Reports end up in CI logs, PR comments
// and artifacts, so every string is redacted once, before any reporter runs.
// The patterns look for the shape of a credential, not for words: prose that
// mentions "token" or "password" stays as written.
// Pure, and in the engine, so that lib/live can redact transcripts as it
// builds them and lib/report whole reports: the dependency rule lets both
// import the engine, not each other.

export const REDACTED = "[REDACTED]";

interface SecretPattern {
  name: string;
  pattern: RegExp;
  /** A regex source for text that every match of `pattern` contains (case aside): the one-pass check that lets text without any skip all the patterns. */
  trigger: string;
  /** Gets the match and its capture groups (undefined when a group did not take part); defaults to replacing the whole match. */
  replace?: (match: string, groups: (string | undefined)[]) => string;
}

// Value characters of the key/value rule: stop at whitespace, quotes and the
// separators of query strings, JSON and argument lists.
const BARE_VALUE = String.raw`[^\s"'&,;<>(){}\[\]]{3,}`;

const SECRET_WORD = String.raw`api[_-]?key|secret|token|password|passwd|access[_-]?key|private[_-]?key`;
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*?(?:${SECRET_WORD})`;

// Where a token may start. Not `\b`: credentials turn up in escaped text (a
// tool's JSON output quoted in a transcript reads `"x\nsk-ant-..."`, a URL
// `?k=%0Aghp_...`), where the letter before the token belongs to an escape
// (`\n`, `\u003d`, `%3D`), so no word boundary precedes it. A start is the
// start of the text, anything but a letter or digit, or the end of an escape.
// Checked behind the token's prefix rather than in front of it, so that the
// engine scans for the prefix first (in front, it made redaction 25 times slower).
const BEFORE = String.raw`(?:^|[^A-Za-z0-9]|\\[nrtbfv0]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})`;
const at = (prefix: string, rest: string, flags = "g") =>
  new RegExp(`(?:${prefix})(?<=${BEFORE}(?:${prefix}))${rest}`, flags);

// Order matters: whole blocks first, then specific token shapes, then the
// key/value rule, which would otherwise cut a known token in half.
const PATTERNS: SecretPattern[] = [
  {
    name: "PEM private key",
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----(?:[\s\S]*?-----END \1PRIVATE KEY-----|[A-Za-z0-9+/=\s]*)/g,
    trigger: "PRIVATE KEY-----",
  },
  // Distinctive enough to need no start at all: whatever comes before, it goes.
  { name: "Anthropic key", pattern: /sk-ant-[A-Za-z0-9_-]{10,}/g, trigger: "sk-ant-" },
  { name: "OpenAI-style key", pattern: at("sk-", "[A-Za-z0-9_-]{20,}"), trigger: "sk-" },
  {
    name: "Bearer token",
    // A digit or a length no word reaches, so "the bearer of bad news" stays.
    pattern: new RegExp(
      String.raw`(Bearer)(?<=${BEFORE}Bearer)(\s+)(?:(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}|[A-Za-z0-9._~+/-]{24,})=*`,
      "gi",
    ),
    replace: (_match, [scheme = "", space = ""]) => `${scheme}${space}${REDACTED}`,
    trigger: "bearer",
  },
  {
    name: "AWS access key id",
    pattern: at("AKIA|ASIA", "[0-9A-Z]{16}(?![0-9A-Za-z])"),
    trigger: "AKIA|ASIA",
  },
  {
    name: "GitHub token",
    pattern: at("gh[pousr]_|github_pat_", "[A-Za-z0-9_]{20,}"),
    trigger: "gh[pousr]_|github_pat_",
  },
  { name: "Slack token", pattern: at("xox[baprs]-", "[A-Za-z0-9-]{10,}"), trigger: "xox[baprs]-" },
  {
    name: "JWT",
    pattern: at("eyJ", String.raw`[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`),
    trigger: "eyJ",
  },
  {
    name: "secret key/value",
    // `api_key=…`, `"password": "…"`, `X-Api-Key: …`, and the same inside
    // JSON-escaped text (`{\"token\": \"…\"}`). The key must end in the secret
    // word, so `max_tokens: 1024` and `token count: 3` are not touched.
    pattern: new RegExp(
      String.raw`\b(${SECRET_KEY})((?:\\?["'])?\s*[:=]\s*)(?:\\"((?:[^"\\\n]|\\[^"\n])*)\\"|"([^"\n]*)"|'([^'\n]*)'|(${BARE_VALUE}))`,
      "gi",
    ),
    replace: (match, [key = "", separator = "", escapedQuoted, doubleQuoted, singleQuoted]) => {
      if (escapedQuoted !== undefined)
        return escapedQuoted === "" ? match : `${key}${separator}\\"${REDACTED}\\"`;
      if (doubleQuoted !== undefined)
        return doubleQuoted === "" ? match : `${key}${separator}"${REDACTED}"`;
      if (singleQuoted !== undefined)
        return singleQuoted === "" ? match : `${key}${separator}'${REDACTED}'`;
      return `${key}${separator}${REDACTED}`;
    },
    trigger: SECRET_WORD,
  },
];

/** The names of the credential shapes that are redacted, for documentation and tests. */
export const SECRET_PATTERN_NAMES = PATTERNS.map((p) => p.name);

// Most strings in a report (names, scores, reasons) hold none of the
// triggers: one case-insensitive pass over them replaces nine.
// eslint-disable-next-line no-restricted-syntax -- the triggers written above, joined; no data goes into it.
const MAY_HOLD_SECRET = new RegExp(PATTERNS.map((p) => p.trigger).join("|"), "i");

/** Whether `text` holds what some pattern needs; when false, no pattern can match it. */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text);
}

export function redactSecrets(text: string): string {
  return mayHoldSecret(text) ? applyPatterns(text) : text;
}

/** Every pattern over `text`, without the one-pass check (exported for the test that proves the check never skips a secret). */
export function applyPatterns(text: string): string {
  let out = text;
  for (const { pattern, replace } of PATTERNS) {
    // After the groups, String.replace passes the offset and the whole input;
    // callbacks only read the leading groups, so the tail does no harm.
    out = replace
      ? out.replace(pattern, (match: string, ...rest: unknown[]) =>
          replace(
            match,
            rest.map((g) => (typeof g === "string" ? g : undefined)),
          ),
        )
      : out.replace(pattern, REDACTED);
  }
  return out;
}

/**
 * Any JSON-like value (a report, a result) with every string redacted. The
 * input is never changed: an array or object with something redacted inside
 * is a copy, one with nothing to redact is returned as it is (copying a whole
 * report of clean strings cost ~10 ms at the end of every eval).
 */
export function redactDeep<T>(value: T): T {
  return redactDeepWith(value, redactSecrets);
}

/** `redactDeep` with another redaction of each string (a `Redactor`'s, which also knows the process's own secrets). */
export function redactDeepWith<T>(value: T, redactText: (text: string) => string): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const redacted = redactDeepWith(value[i] as unknown, redactText);
      if (redacted !== value[i]) (copy ??= [...value])[i] = redacted;
    }
    return (copy ?? value) as T;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const redacted = redactDeepWith(record[key], redactText);
      if (redacted !== record[key]) (copy ??= { ...record })[key] = redacted;
    }
    return (copy ?? value) as T;
  }
  return value;
}
