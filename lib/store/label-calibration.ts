import { humanCalibration } from "../engine/trust/people/human-calibration";
import { peopleAgreement, type PeopleAgreement } from "../engine/trust/people/people-agreement";
import type { EvalResult } from "../engine/results/report";
import { readStoredResult } from "../engine/results/stored-result";
import type { CalibrationResult } from "../engine/results/trust";
import type { PrismaClient } from "./generated/client";
import { UUID } from "./uuid";

// The calibration view's second half: the judges against the labels people
// gave in the review queue (human_labels), each beside the judges' verdict on
// the same criterion of the same stored result; and people against one
// another where an item was offered to a second reviewer.

const LABELS_READ = 2000;

/** A suite's labels (the calibration view), or one run's (its agreement view: people beside the judges). */
export async function labelCalibration(
  prisma: PrismaClient,
  scope: { suiteId: string } | { runId: string },
): Promise<CalibrationResult | undefined> {
  const id = "suiteId" in scope ? scope.suiteId : scope.runId;
  if (!UUID.test(id)) return undefined;
  const where = "suiteId" in scope ? { suiteId: id, runId: { not: null } } : { runId: id };
  const labels = await prisma.humanLabel.findMany({
    where: { ...where, score: { not: null } },
    orderBy: { createdAt: "desc" },
    take: LABELS_READ,
  });
  if (labels.length === 0) return undefined;
  const rows = await prisma.evalResultRow.findMany({
    where: { OR: labels.map((l) => ({ runId: l.runId!, resultKey: l.resultKey })) },
    select: { runId: true, resultKey: true, data: true },
  });
  const byKey = new Map(
    rows.map((r) => [
      `${r.runId}\u0000${r.resultKey}`,
      readStoredResult(r.data as unknown as EvalResult),
    ]),
  );
  const calibration = humanCalibration({
    labels: labels.map((label) => ({
      label,
      result: byKey.get(`${label.runId}\u0000${label.resultKey}`),
    })),
  });
  return calibration.criteria.length ? calibration : undefined;
}

/**
 * Agreement between people on the items two of them labelled (a second opinion), of a suite or of
 * one run's results.
 */
export async function labelPeopleAgreement(
  prisma: PrismaClient,
  scope: { suiteId: string } | { runId: string },
): Promise<PeopleAgreement[]> {
  const id = "suiteId" in scope ? scope.suiteId : scope.runId;
  if (!UUID.test(id)) return [];
  // Only items with more than one label (their ids first, so the labels read are those items' only).
  const twice = await prisma.humanLabel.groupBy({
    by: ["reviewItemId"],
    where: {
      ...("suiteId" in scope ? { suiteId: id } : { runId: id }),
      reviewItemId: { not: null },
    },
    having: { reviewItemId: { _count: { gt: 1 } } },
  });
  if (twice.length === 0) return [];
  const labels = await prisma.humanLabel.findMany({
    where: { reviewItemId: { in: twice.map((t) => t.reviewItemId!) } },
    orderBy: { createdAt: "asc" },
    take: LABELS_READ,
    select: {
      reviewItemId: true,
      evalName: true,
      criterion: true,
      reviewer: true,
      scale: true,
      value: true,
      score: true,
    },
  });
  return peopleAgreement(labels.map(({ reviewItemId, ...l }) => ({ ...l, itemId: reviewItemId! })));
}
