-- AlterTable
ALTER TABLE "eval_results" ADD COLUMN     "judge_count" INTEGER NOT NULL DEFAULT 1;

-- Results stored before this column: count their judges once, here.
UPDATE "eval_results" SET "judge_count" = jsonb_array_length("data"->'judges') WHERE jsonb_typeof("data"->'judges') = 'array' AND jsonb_array_length("data"->'judges') >= 2;
