-- AlterTable
ALTER TABLE "eval_results" ADD COLUMN     "suite_order" TEXT NOT NULL DEFAULT '';

-- The results stored before this column, keyed here as lib/store/suite-order-key.ts keys new ones:
-- line, column and prompt position zero-padded, then the name in lower case with each run of digits
-- written as its length (3 digits) and its value without leading zeros, so "#2" comes before "#10".
UPDATE "eval_results" SET "suite_order" =
  lpad(coalesce("data"->'location'->>'line', '9999999999'), 10, '0') || '.' ||
  lpad(coalesce("data"->'location'->>'column', '0'), 10, '0') || '.' ||
  lpad(coalesce("data"->'cell'->>'promptIndex', '0'), 10, '0') || '.' ||
  coalesce((
    SELECT string_agg(
      CASE WHEN part[1] ~ '^[0-9]'
        THEN lpad(length(regexp_replace(part[1], '^0+(?=[0-9])', ''))::text, 3, '0') || regexp_replace(part[1], '^0+(?=[0-9])', '')
        ELSE lower(part[1]) END, '' ORDER BY n)
    FROM regexp_matches("name", '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS m(part, n)
  ), '');

-- CreateIndex
CREATE INDEX "eval_results_run_id_suite_order_id_idx" ON "eval_results"("run_id", "suite_order", "id");

-- CreateIndex
CREATE INDEX "eval_results_run_id_name_id_idx" ON "eval_results"("run_id", "name", "id");

-- CreateIndex
CREATE INDEX "eval_results_run_id_status_name_id_idx" ON "eval_results"("run_id", "status", "name", "id");
