import * as z from "zod";

// The one place that reads the environment (DESIGN.md, house rule 7). Every
// other module receives these values as parameters.

/** A bound of a suite run from a file (lib/cli/file-limits.ts): a whole number of at least 1. */
const planBound = (name: string) =>
  z.coerce
    .number()
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1` })
    .optional();

const PlanLimitSchema = z.object({
  RUBRIC_STUDIO_MAX_CELLS: planBound("RUBRIC_STUDIO_MAX_CELLS"),
  RUBRIC_STUDIO_MAX_JUDGE_CALLS: planBound("RUBRIC_STUDIO_MAX_JUDGE_CALLS"),
});

const EnvSchema = PlanLimitSchema.extend({
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.url({ error: "ANTHROPIC_BASE_URL must be an absolute URL" }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z
    .url({ protocol: /^https?$/, error: "OPENAI_BASE_URL must be an absolute http(s) URL" })
    .optional(),
  RUBRIC_STUDIO_JUDGE_MODEL: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, {
      error: "DATABASE_URL must be a postgres:// or postgresql:// URL",
    })
    .optional(),
  RUBRIC_STUDIO_DATA_DIR: z.string().min(1).optional(),
  RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS: z.coerce
    .number()
    .int()
    .min(10, {
      error:
        "RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS must be a whole number of seconds, at least 10",
    })
    .optional(),
  RUBRIC_STUDIO_BATCH_MAX_REQUESTS: z.coerce
    .number()
    .int()
    .min(1, { error: "RUBRIC_STUDIO_BATCH_MAX_REQUESTS must be a whole number, at least 1" })
    .max(100_000, {
      error: "RUBRIC_STUDIO_BATCH_MAX_REQUESTS must be at most 100,000 (the API's limit)",
    })
    .optional(),
  RUBRIC_STUDIO_HOST: z.string().min(1).optional(),
  RUBRIC_STUDIO_PASSWORD: z
    .string()
    .min(8, { error: "RUBRIC_STUDIO_PASSWORD must be at least 8 characters" })
    .optional(),
  RUBRIC_STUDIO_API_TOKEN: z
    .string()
    .min(16, { error: "RUBRIC_STUDIO_API_TOKEN must be at least 16 characters" })
    .optional(),
  RUBRIC_STUDIO_SESSION_SECRET: z
    .string()
    .min(32, { error: "RUBRIC_STUDIO_SESSION_SECRET must be at least 32 characters" })
    .optional(),
  RUBRIC_STUDIO_MCP_SERVERS: z.string().min(1).optional(),
  RUBRIC_STUDIO_PROVIDERS: z.string().min(1).optional(),
  RUBRIC_STUDIO_PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      error:
        "RUBRIC_STUDIO_PUBLIC_URL must be an http:// or https:// URL (the address people " +
        "open, e.g. https://rubrics.example.com)",
    })
    .optional(),
  RUBRIC_STUDIO_TRUST_PROXY: z
    .enum(["0", "1", "true", "false"], {
      error: "RUBRIC_STUDIO_TRUST_PROXY must be 1 or 0 (true or false)",
    })
    .optional(),
});

// claude-sonnet-4-5, the guide's examples' model, reaches end-of-life on
// 2026-11-30 (the SDK warns on every call); its successor is the default.
export const DEFAULT_JUDGE_MODEL = "claude-sonnet-4-6";

export interface Settings {
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  /** The openai provider's key and endpoint (models written openai:… or named gpt-*, o1, o3, o4). */
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  /** The judge model for evals that name none. */
  judgeModel: string;
  /** A real Postgres for run history; unset means the embedded database. */
  databaseUrl?: string;
  /** Where the embedded database keeps its files (default .data/pglite in the project). */
  dataDir?: string;
  /** How often queue workers must show life before their jobs go to another worker (default 30). */
  workerHeartbeatSeconds?: number;
  /** Requests per Message Batch at most (default the API's 100,000): a queued run's rounds are split at it. */
  batchMaxRequests?: number;
  /** The address the dashboard binds to (default 127.0.0.1); `--host` overrides it. */
  host?: string;
  /** The dashboard's login password; required off loopback, and asked for everywhere once set. */
  password?: string;
  /** A token scripts send as `Authorization: Bearer <token>` instead of logging in. */
  apiToken?: string;
  /** Seals session cookies; `npm run dev`/`start` generates one per start when unset. */
  sessionSecret?: string;
  /** The file listing the MCP servers that suites run from the dashboard may start. */
  mcpServersFile?: string;
  /** The file listing the model providers (besides anthropic and openai) that suites run from the dashboard may use. */
  providersFile?: string;
  /** The origin people open the dashboard at (behind a proxy); redirects go there. */
  publicUrl?: string;
  /** Whether a reverse proxy in front sets X-Forwarded-Host/-Proto/-For; otherwise those headers are ignored. */
  trustProxy?: boolean;
  /** Raise (or lower) the cells and judge calls a suite run from a file may plan. */
  maxCells?: number;
  maxJudgeCalls?: number;
}

export type SettingsResult = { ok: true; value: Settings } | { ok: false; message: string };

type Env = Record<string, string | undefined>;

function parseEnv<T>(
  schema: z.ZodType<T>,
  env: Env,
): { ok: true; value: T } | { ok: false; message: string } {
  // An empty variable means unset, as shells and CI systems often export them empty.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    return {
      ok: false,
      message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    };
  }
  return { ok: true, value: parsed.data };
}

/** Only the bounds of a suite run from a file, for commands that need no other setting (`validate`). */
export function readPlanLimitSettings(
  env: Env = process.env,
):
  | { ok: true; value: Pick<Settings, "maxCells" | "maxJudgeCalls"> }
  | { ok: false; message: string } {
  const parsed = parseEnv(PlanLimitSchema, env);
  if (!parsed.ok) return parsed;
  const e = parsed.value;
  return {
    ok: true,
    value: { maxCells: e.RUBRIC_STUDIO_MAX_CELLS, maxJudgeCalls: e.RUBRIC_STUDIO_MAX_JUDGE_CALLS },
  };
}

export function readEnv(env: Env = process.env): SettingsResult {
  const parsed = parseEnv(EnvSchema, env);
  if (!parsed.ok) return parsed;
  const e = parsed.value;
  return {
    ok: true,
    value: {
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
      openaiApiKey: e.OPENAI_API_KEY,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      judgeModel: e.RUBRIC_STUDIO_JUDGE_MODEL ?? DEFAULT_JUDGE_MODEL,
      databaseUrl: e.DATABASE_URL,
      dataDir: e.RUBRIC_STUDIO_DATA_DIR,
      workerHeartbeatSeconds: e.RUBRIC_STUDIO_WORKER_HEARTBEAT_SECONDS,
      batchMaxRequests: e.RUBRIC_STUDIO_BATCH_MAX_REQUESTS,
      host: e.RUBRIC_STUDIO_HOST,
      password: e.RUBRIC_STUDIO_PASSWORD,
      apiToken: e.RUBRIC_STUDIO_API_TOKEN,
      sessionSecret: e.RUBRIC_STUDIO_SESSION_SECRET,
      mcpServersFile: e.RUBRIC_STUDIO_MCP_SERVERS,
      providersFile: e.RUBRIC_STUDIO_PROVIDERS,
      ...(e.RUBRIC_STUDIO_PUBLIC_URL
        ? { publicUrl: new URL(e.RUBRIC_STUDIO_PUBLIC_URL).origin }
        : {}),
      trustProxy: e.RUBRIC_STUDIO_TRUST_PROXY === "1" || e.RUBRIC_STUDIO_TRUST_PROXY === "true",
      maxCells: e.RUBRIC_STUDIO_MAX_CELLS,
      maxJudgeCalls: e.RUBRIC_STUDIO_MAX_JUDGE_CALLS,
    },
  };
}
