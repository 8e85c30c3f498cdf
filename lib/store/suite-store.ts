import { cleanName } from "../config/clean-name";
import type { PrismaClient } from "./generated/client";
import { contentHash, type RunStatus } from "./run-store";
import { UUID } from "./uuid";

// The authoring side of the store: suites and their saved versions, as the
// dashboard's suites list and editor need them. A version is stored once per
// content hash (the same table the CLI's runs write to), so saving unchanged
// text is free and a run of the same YAML points at the same version.

export interface SuiteSummary {
  id: string;
  name: string;
  versions: number;
  lastSavedAt: Date | null;
  /** With its outcome counts, so a run that completed with failures is not listed as a plain "completed". */
  lastRun: {
    id: string;
    status: RunStatus;
    createdAt: Date;
    passed: number;
    failed: number;
    judgeErrors: number;
    deferred: number;
    skipped: number;
  } | null;
}

export interface SuiteVersionInfo {
  id: string;
  contentHash: string;
  createdAt: Date;
  lines: number;
}

export interface SuiteDetail {
  id: string;
  name: string;
  latest: (SuiteVersionInfo & { yaml: string }) | null;
}

/** A result with a code the edges map to an HTTP status (DESIGN.md house rule 6). */
export type StoreResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: "not_found" | "name_taken" | "bad_request"; message: string };

const notFound = {
  ok: false,
  code: "not_found",
  message: "This suite does not exist (it may have been deleted).",
} as const;
const nameTaken = (name: string) =>
  ({ ok: false, code: "name_taken", message: `A suite named "${name}" already exists.` }) as const;

function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002"
  );
}

function lineCount(yaml: string): number {
  return yaml === "" ? 0 : yaml.split("\n").length;
}

export function createSuiteStore(prisma: PrismaClient) {
  return {
    /** Every suite, newest activity first, with its version count, last save and last run. */
    async listSuites(): Promise<SuiteSummary[]> {
      const suites = await prisma.suite.findMany({
        include: {
          _count: { select: { versions: true } },
          versions: { orderBy: { createdAt: "desc" }, take: 1, select: { createdAt: true } },
          // Calibration runs are not runs of the suite's evals (they have their own view).
          runs: {
            where: { kind: "eval" },
            orderBy: { createdAt: "desc" },
            take: 1,
            select: {
              id: true,
              status: true,
              createdAt: true,
              passed: true,
              failed: true,
              judgeErrors: true,
              deferred: true,
              skipped: true,
            },
          },
        },
      });
      const summaries = suites.map((s): SuiteSummary => {
        const run = s.runs[0];
        return {
          id: s.id,
          name: s.name,
          versions: s._count.versions,
          lastSavedAt: s.versions[0]?.createdAt ?? null,
          lastRun: run ? { ...run, status: run.status as RunStatus } : null,
        };
      });
      const activity = (s: SuiteSummary) =>
        Math.max(s.lastSavedAt?.getTime() ?? 0, s.lastRun?.createdAt.getTime() ?? 0);
      return summaries.sort((a, b) => activity(b) - activity(a) || a.name.localeCompare(b.name));
    },

    async getSuite(id: string): Promise<SuiteDetail | undefined> {
      if (!UUID.test(id)) return undefined;
      const suite = await prisma.suite.findUnique({
        where: { id },
        include: { versions: { orderBy: { createdAt: "desc" }, take: 1 } },
      });
      if (!suite) return undefined;
      const v = suite.versions[0];
      return {
        id: suite.id,
        name: suite.name,
        latest: v
          ? {
              id: v.id,
              contentHash: v.contentHash,
              createdAt: v.createdAt,
              lines: lineCount(v.yaml),
              yaml: v.yaml,
            }
          : null,
      };
    },

    /** A new suite with its first version. Names are unique (the CLI names suites by file path). */
    async createSuite(input: { name: string; yaml: string }): Promise<StoreResult<{ id: string }>> {
      const name = cleanName(input.name);
      if (!name) return { ok: false, code: "bad_request", message: "A suite needs a name." };
      try {
        const suite = await prisma.suite.create({
          data: {
            name,
            versions: { create: { contentHash: contentHash(input.yaml), yaml: input.yaml } },
          },
        });
        return { ok: true, value: { id: suite.id } };
      } catch (error) {
        if (isUniqueViolation(error)) return nameTaken(name);
        throw error;
      }
    },

    async renameSuite(input: { id: string; name: string }): Promise<StoreResult<{ id: string }>> {
      if (!UUID.test(input.id)) return notFound;
      const name = cleanName(input.name);
      if (!name) return { ok: false, code: "bad_request", message: "A suite needs a name." };
      try {
        const { count } = await prisma.suite.updateMany({
          where: { id: input.id },
          data: { name },
        });
        return count === 0 ? notFound : { ok: true, value: { id: input.id } };
      } catch (error) {
        if (isUniqueViolation(error)) return nameTaken(name);
        throw error;
      }
    },

    /** Deletes the suite with its versions, runs and results (the schema cascades). */
    async deleteSuite(id: string): Promise<StoreResult<{ id: string }>> {
      if (!UUID.test(id)) return notFound;
      const { count } = await prisma.suite.deleteMany({ where: { id } });
      return count === 0 ? notFound : { ok: true, value: { id } };
    },

    /**
     * Saves the editor's text as a version. Text identical to the latest
     * version is not saved again (`created: false`). Text identical to an older
     * version brings that version back to the top: the schema keeps one row per
     * content hash (runs point at it), so restoring moves its time to now.
     */
    async saveVersion(input: {
      suiteId: string;
      yaml: string;
    }): Promise<StoreResult<{ version: SuiteVersionInfo; created: boolean }>> {
      if (!UUID.test(input.suiteId)) return notFound;
      const suite = await prisma.suite.findUnique({
        where: { id: input.suiteId },
        include: { versions: { orderBy: { createdAt: "desc" }, take: 1 } },
      });
      if (!suite) return notFound;
      const hash = contentHash(input.yaml);
      const info = (v: {
        id: string;
        contentHash: string;
        createdAt: Date;
        yaml: string;
      }): SuiteVersionInfo => ({
        id: v.id,
        contentHash: v.contentHash,
        createdAt: v.createdAt,
        lines: lineCount(v.yaml),
      });
      if (suite.versions[0]?.contentHash === hash)
        return { ok: true, value: { version: info(suite.versions[0]), created: false } };
      const version = await prisma.suiteVersion.upsert({
        where: { suiteId_contentHash: { suiteId: suite.id, contentHash: hash } },
        create: { suiteId: suite.id, contentHash: hash, yaml: input.yaml },
        update: { createdAt: new Date() },
      });
      await prisma.suite.update({ where: { id: suite.id }, data: { updatedAt: new Date() } });
      return { ok: true, value: { version: info(version), created: true } };
    },

    /** The suite's versions, newest first, without their text. */
    async listVersions(suiteId: string): Promise<StoreResult<SuiteVersionInfo[]>> {
      if (!UUID.test(suiteId)) return notFound;
      const suite = await prisma.suite.findUnique({
        where: { id: suiteId },
        include: { versions: { orderBy: { createdAt: "desc" } } },
      });
      if (!suite) return notFound;
      return {
        ok: true,
        value: suite.versions.map((v) => ({
          id: v.id,
          contentHash: v.contentHash,
          createdAt: v.createdAt,
          lines: lineCount(v.yaml),
        })),
      };
    },

    /** Two versions of one suite with their text, for a diff. */
    async getVersionPair(input: { suiteId: string; from: string; to: string }): Promise<
      StoreResult<{
        from: SuiteVersionInfo & { yaml: string };
        to: SuiteVersionInfo & { yaml: string };
      }>
    > {
      if (![input.suiteId, input.from, input.to].every((id) => UUID.test(id))) return notFound;
      const rows = await prisma.suiteVersion.findMany({
        where: { suiteId: input.suiteId, id: { in: [input.from, input.to] } },
      });
      const find = (id: string) => rows.find((r) => r.id === id);
      const from = find(input.from);
      const to = find(input.to);
      if (!from || !to)
        return {
          ok: false,
          code: "not_found",
          message: "One of these versions does not exist in this suite.",
        };
      const full = (v: typeof from) => ({
        id: v.id,
        contentHash: v.contentHash,
        createdAt: v.createdAt,
        lines: lineCount(v.yaml),
        yaml: v.yaml,
      });
      return { ok: true, value: { from: full(from), to: full(to) } };
    },
  };
}

export type SuiteStore = ReturnType<typeof createSuiteStore>;
