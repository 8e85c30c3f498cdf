-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "figures" JSONB;
