-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "regrade_of" UUID;

-- The regrades stored before: their source run from the run's own config (`regrade` wrote it there).
UPDATE "runs" SET "regrade_of" = ("config"->>'regradeOf')::uuid
  WHERE "config"->>'regradeOf' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
