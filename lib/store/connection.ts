import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client";

// One code path for the embedded PGlite server and a real Postgres: both are
// reached over the Postgres wire protocol through the same adapter.

export interface ConnectionConfig {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

export function parseDatabaseUrl(url: string): ConnectionConfig {
  const parsed = new URL(url);
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must be a postgres:// URL, not ${parsed.protocol}`);
  }
  return {
    host: decodeURIComponent(parsed.hostname) || "127.0.0.1",
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username) || "postgres",
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
  };
}

/**
 * The adapter factory for a URL. Separate fields rather than a connection
 * string (STACK.md: the string form mis-parses some PGlite URLs), and a small
 * pool so that every pool together stays within the embedded server's limit.
 */
export function adapterFor(url: string, options: { max?: number } = {}): PrismaPg {
  return new PrismaPg(poolConfig(url, options));
}

function poolConfig(url: string, options: { max?: number }): pg.PoolConfig {
  return { ...parseDatabaseUrl(url), max: options.max ?? 6, idleTimeoutMillis: 1_000 };
}

/**
 * Runs `work` with an adapter over a pool of its own, ended afterwards: an
 * idle pool would keep a finished process alive for its idle timeout.
 */
export async function withAdapter<T>(
  url: string,
  work: (adapter: PrismaPg) => Promise<T>,
): Promise<T> {
  const pool = new pg.Pool({ ...parseDatabaseUrl(url), max: 1 });
  try {
    return await work(new PrismaPg(pool));
  } finally {
    await pool.end();
  }
}

// The pool under each client made here, for a statement too big to go through Prisma (poolOf).
const pools = new WeakMap<PrismaClient, pg.Pool>();

export function createPrismaClient(url: string, options: { max?: number } = {}): PrismaClient {
  const pool = new pg.Pool(poolConfig(url, options));
  // An idle connection that fails leaves the pool, and the next query opens another; without a
  // listener the pool's 'error' event would end the process before Prisma's adapter adds its own.
  pool.on("error", () => undefined);
  // The client's $disconnect ends the pool, as it ends one the adapter makes.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(prisma, pool);
  return prisma;
}

/**
 * The pg pool a client of `createPrismaClient` queries through, while it is open. A raw statement
 * sent here skips Prisma's parameter round trip (each parameter written as JSON and parsed back,
 * a quarter of the CPU of writing a batch of results, whose one parameter is megabytes of JSON).
 */
export function poolOf(prisma: PrismaClient): pg.Pool | undefined {
  const pool = pools.get(prisma);
  return pool && !pool.ended ? pool : undefined;
}

/**
 * A raw statement with `$n` parameters, straight to the client's pool when it has one (poolOf),
 * else through Prisma. What comes back is typed as pg types it (timestamptz as a Date, jsonb
 * parsed, float8 as a number), as Prisma's raw queries do.
 */
export async function queryDirect<T>(
  prisma: PrismaClient,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  const pool = poolOf(prisma);
  if (pool) return (await pool.query(sql, params as unknown[])).rows as T[];
  return prisma.$queryRawUnsafe<T[]>(sql, ...params);
}

export type { PrismaClient };
