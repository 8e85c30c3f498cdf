import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList } from "@prisma/schema-engine-wasm";

// Prisma's schema engine, compiled to WebAssembly, driven over a driver
// adapter. Prisma 7's CLI downloads a native schema engine, which cannot be
// had offline; the WASM build ships inside an npm package and does the same
// work (STACK.md, "Prisma offline"). Migrations stay in Prisma's standard
// folder format, so `prisma migrate deploy` works wherever its binary can be had.

type Bindings = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  "../../prisma/migrations",
);
export const SCHEMA_FILE = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  "../../prisma/schema.prisma",
);

let bindings: Promise<Bindings> | undefined;

/** The WASM module may be instantiated once per process: a second instance panics. */
function loadBindings(): Promise<Bindings> {
  bindings ??= (async () => {
    const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Bindings;
    const wasmPath = createRequire(import.meta.url)
      .resolve("@prisma/schema-engine-wasm/schema_engine_bg")
      .replace(/\.js$/, ".wasm");
    // The engine arms 10-second timers it never clears; unref'd, they no
    // longer keep a finished process waiting.
    const imports: Record<string, unknown> = { ...bg };
    for (const [name, value] of Object.entries(bg)) {
      if (name.startsWith("__wbg_setTimeout") && typeof value === "function") {
        imports[name] = (...args: unknown[]) => {
          const timer = (value as (...a: unknown[]) => unknown)(...args) as
            { unref?: () => void } | undefined;
          timer?.unref?.();
          return timer;
        };
      }
    }
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": imports as WebAssembly.ModuleImports,
    });
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message: (message: string) => console.error(`schema engine panic: ${message}`),
    };
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })();
  return bindings;
}

export async function readMigrationList(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    folders.map(async (folder) => {
      const file = path.join(dir, folder, "migration.sql");
      const content = await readFile(file, "utf8").then(
        (text) => ({ tag: "ok" as const, value: text }),
        (error: Error) => ({ tag: "error" as const, value: error.message }),
      );
      return { path: folder, migrationFile: { path: "migration.sql", content } };
    }),
  );
  const lockfile = await readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

type Connected = Awaited<ReturnType<SqlMigrationAwareDriverAdapterFactory["connect"]>>;

/**
 * `@prisma/adapter-pg` runs a migration script by splitting it on every `;`, so a `;` in a
 * comment, a quoted string or a dollar-quoted function body cut a statement in two and broke the
 * migration. Postgres reads a script whole when it comes in one simple-protocol query (as psql and
 * Prisma's native engine send it): `executeRaw` with no parameters is one (node-postgres prepares
 * a statement only when it has values or a name), and it maps errors as every other query does.
 * Other adapters (PGlite's runs the script whole already) are left as they are.
 */
function runScriptsWhole<A extends Connected>(adapter: A): A {
  if (adapter.adapterName !== "@prisma/adapter-pg") return adapter;
  adapter.executeScript = async (script: string) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

/** Runs `work` with a schema engine connected through `adapterFactory`, and frees it after. */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  work: (engine: Awaited<ReturnType<Bindings["SchemaEngine"]["new"]>>) => Promise<T>,
): Promise<T> {
  const bg = await loadBindings();
  const schema = await readFile(SCHEMA_FILE, "utf8");
  // Freeing the engine does not close the connections it opened, and an open
  // connection keeps the process alive: track them and dispose of them here.
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = Object.assign(
    Object.create(adapterFactory) as SqlMigrationAwareDriverAdapterFactory,
    {
      connect: async () => {
        const adapter = runScriptsWhole(await adapterFactory.connect());
        opened.push(adapter);
        return adapter;
      },
      connectToShadowDb: async () => {
        const adapter = runScriptsWhole(await adapterFactory.connectToShadowDb());
        opened.push(adapter);
        return adapter;
      },
    },
  );
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[SCHEMA_FILE, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await work(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}

const NO_FILTER = { externalTables: [], externalEnums: [] };

/**
 * Whether Prisma's history says every migration of `list` finished (and none was rolled back):
 * one query, so that an up-to-date database (every `eval --store` and worker start) never loads
 * the schema engine, whose WebAssembly kept ~60 MB of the process's memory for the whole run. A
 * database without the history table, or one that cannot say, is not up to date.
 */
async function upToDate(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  list: MigrationList,
): Promise<boolean> {
  const adapter = await adapterFactory.connect();
  try {
    const result = await adapter.queryRaw({
      sql: "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      args: [],
      argTypes: [],
    });
    const applied = new Set(result.rows.map((row) => String(row[0])));
    return list.migrationDirectories.every((folder) => applied.has(folder.path));
  } catch {
    return false;
  } finally {
    await adapter.dispose();
  }
}

/** Applies every migration not yet applied; returns their names. Safe to run on an up-to-date database. */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  const migrationsList = await readMigrationList(dir);
  if (await upToDate(adapterFactory, migrationsList)) return [];
  return withSchemaEngine(adapterFactory, async (engine) => {
    const output = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
    return output.appliedMigrationNames;
  });
}

/** The SQL that takes the committed migrations to the current schema.prisma (empty when in step). */
export async function diffMigrationsToSchema(
  shadowCapableFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string> {
  const migrationsList = await readMigrationList();
  const schema = await readFile(SCHEMA_FILE, "utf8");
  return withSchemaEngine(shadowCapableFactory, async (engine) => {
    const result = await engine.diff({
      from: migrationsList.migrationDirectories.length
        ? { tag: "migrations", ...migrationsList }
        : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_FILE, content: schema }] },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    return result.stdout ?? "";
  });
}
