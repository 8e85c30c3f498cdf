-- AlterTable
ALTER TABLE "calibration_results" ADD COLUMN     "eval_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'eval';

-- CreateIndex
CREATE INDEX "runs_suite_id_kind_created_at_idx" ON "runs"("suite_id", "kind", "created_at" DESC);
