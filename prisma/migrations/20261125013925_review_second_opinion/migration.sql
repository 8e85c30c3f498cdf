-- AlterTable
ALTER TABLE "review_items" ADD COLUMN     "labels_wanted" INTEGER NOT NULL DEFAULT 1;
