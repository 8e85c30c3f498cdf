import { LIMITS } from "../config/limits";
import {
  referenceItemOf,
  type ReferenceDataset,
  type ReferenceItem,
} from "../engine/trust/people/reference-item";
import type { PrismaClient } from "./generated/client";
import { UUID } from "./uuid";

// "Add to dataset": a label appended to its suite's ReferenceDataset
// (label_dataset_items, one ReferenceData item per label, added once), and
// the whole dataset as the Go package's JSON for the dashboard's download.

// As many as a dataset file may hold (LIMITS.datasetItems), so the download reads back.
const ITEMS_MAX = LIMITS.datasetItems;

export type AddToDatasetResult =
  | { ok: true; value: { suiteId: string; item: ReferenceItem; added: boolean; items: number } }
  | { ok: false; code: "not_found"; message: string };

export function createLabelDataset(prisma: PrismaClient) {
  return {
    /** Appends the label's item to its suite's dataset; a label added before is not added twice (`added: false`). */
    async add(labelId: string): Promise<AddToDatasetResult> {
      if (!UUID.test(labelId)) return { ok: false, code: "not_found", message: "no such label" };
      const label = await prisma.humanLabel.findUnique({ where: { id: labelId } });
      if (!label) return { ok: false, code: "not_found", message: "no such label" };
      const item = referenceItemOf(label);
      const { count } = await prisma.labelDatasetItem.createMany({
        data: [{ suiteId: label.suiteId, labelId, item: item as object }],
        skipDuplicates: true,
      });
      const items = await prisma.labelDatasetItem.count({ where: { suiteId: label.suiteId } });
      return { ok: true, value: { suiteId: label.suiteId, item, added: count === 1, items } };
    },

    /** The suite's dataset in the order its items were added; undefined for no such suite. */
    async dataset(suiteId: string): Promise<ReferenceDataset | undefined> {
      if (!UUID.test(suiteId)) return undefined;
      const suite = await prisma.suite.findUnique({
        where: { id: suiteId },
        select: { name: true },
      });
      if (!suite) return undefined;
      const rows = await prisma.labelDatasetItem.findMany({
        where: { suiteId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: ITEMS_MAX,
        select: { item: true },
      });
      return {
        id: `${suite.name}-labels`,
        name: `${suite.name}: labels from the review queue`,
        description:
          "Items people labelled in Rubric Studio's review queue, each with its label as a human annotation.",
        items: rows.map((r) => r.item as unknown as ReferenceItem),
      };
    },
  };
}
