import { Prisma, type PrismaClient } from "./generated/client";

// A run's status and its cancel request: what the CLI, the workers, `resume` and the cancel route
// set and poll. Part of the run store (run-store.ts spreads it in).

export type RunStatus = "queued" | "running" | "completed" | "cancelled" | "failed";

export function createRunStatus(prisma: PrismaClient) {
  return {
    async setStatus(id: string, status: RunStatus): Promise<void> {
      if (status === "running") {
        // Each cell of a queued run asks for "running" as it starts: only the first starts the
        // run's clock (the page's ETA reads it).
        // A run finished meanwhile (a cancel that skipped its queued cells) stays finished.
        await prisma.run.updateMany({
          where: { id, status: { notIn: ["running", "cancelled", "completed"] } },
          data: { status, startedAt: new Date(), finishedAt: null },
        });
        return;
      }
      await prisma.run.update({
        where: { id },
        data: { status, ...(status === "failed" ? { finishedAt: new Date() } : {}) },
      });
    },

    /** `resume`: the run is running again, and a cancel asked of it before no longer applies. */
    async reopenRun(id: string): Promise<void> {
      await prisma.run.update({
        where: { id },
        data: {
          status: "running",
          cancelRequested: false,
          finishedAt: null,
          figures: Prisma.DbNull,
        },
      });
      // Its agreement figures too: finishRun computes them again over what the run has then.
      await prisma.runAgreementRow.deleteMany({ where: { runId: id } });
    },

    async requestCancel(id: string): Promise<boolean> {
      const { count } = await prisma.run.updateMany({
        where: { id, status: { in: ["queued", "running"] } },
        data: { cancelRequested: true },
      });
      return count > 0;
    },

    async isCancelRequested(id: string): Promise<boolean> {
      const run = await prisma.run.findUnique({ where: { id }, select: { cancelRequested: true } });
      return run?.cancelRequested ?? false;
    },

    /** Of these runs, the ones whose cancel was requested: one query for all of a worker's runs in hand. */
    async cancelRequestedAmong(ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const runs = await prisma.run.findMany({
        where: { id: { in: [...ids] }, cancelRequested: true },
        select: { id: true },
      });
      return runs.map((r) => r.id);
    },
  };
}
