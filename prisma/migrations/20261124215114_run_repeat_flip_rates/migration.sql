-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "flip_rates" JSONB,
ADD COLUMN     "repeats" INTEGER NOT NULL DEFAULT 1;
