-- AlterTable
ALTER TABLE "eval_results" ADD COLUMN     "cell_agent" TEXT;

-- The candidate's model of the matrix cells stored before: from each result's own document.
UPDATE "eval_results" SET "cell_agent" = "data"->'cell'->>'agent' WHERE "data"->'cell'->>'agent' IS NOT NULL;
