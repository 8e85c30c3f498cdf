-- AlterTable
ALTER TABLE "judge_calls" ADD COLUMN     "cache_write_1h_tokens" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "cache_write_1h_tokens" INTEGER NOT NULL DEFAULT 0;
