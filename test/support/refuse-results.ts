import type { PrismaClient } from "../../lib/store/connection";

// A database that refuses some results, the way a constraint or a value it
// cannot hold would: a trigger on eval_results that raises for the rows of
// the eval named "refused" (all of them, or those that are not a judge
// error, so the judge error stored in a refused result's place gets in).
// Returns what drops it again.

export async function refuseResults(input: {
  prisma: PrismaClient;
  /** A name for the trigger and its function, unique in the test file. */
  name: string;
  which: "graded" | "all";
}): Promise<() => Promise<void>> {
  const { prisma, name } = input;
  const condition = input.which === "all" ? "TRUE" : "NEW.status <> 'judge_error'";
  await prisma.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN IF NEW.eval_name = 'refused' AND ${condition} THEN RAISE EXCEPTION 'refused by the test''s trigger'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
  );
  await prisma.$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON eval_results FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  );
  return async () => {
    await prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON eval_results`);
  };
}
