import { defineConfig } from "prisma/config";

// `prisma generate` only: migrations are applied by scripts/db-migrate.ts with
// Prisma's WebAssembly schema engine, which works offline.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
