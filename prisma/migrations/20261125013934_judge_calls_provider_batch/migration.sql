-- AlterTable
ALTER TABLE "judge_calls" ADD COLUMN     "batch_id" TEXT,
ADD COLUMN     "provider" TEXT;
