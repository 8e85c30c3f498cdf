// What a test that calls a route handler as Next does (through DATABASE_URL)
// undoes afterwards: the route's cached Prisma client, and the variable.

const holder = globalThis as typeof globalThis & { __rubricStudioPrisma?: unknown };

export async function releaseRouteDatabase(): Promise<void> {
  const prisma = holder.__rubricStudioPrisma as { $disconnect(): Promise<void> } | undefined;
  await prisma?.$disconnect();
  delete holder.__rubricStudioPrisma;
  delete process.env.DATABASE_URL;
}
