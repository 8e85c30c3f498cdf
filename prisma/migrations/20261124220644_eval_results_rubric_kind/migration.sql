-- AlterTable
ALTER TABLE "eval_results" ADD COLUMN     "rubric_kind" TEXT NOT NULL DEFAULT 'criteria';

-- Results stored before this column: their kind, read once, here.
UPDATE "eval_results" SET "rubric_kind" = "data"->'rubric'->>'kind' WHERE "data"->'rubric'->>'kind' IS NOT NULL;
