-- Each index of eval_results is paid on every result written. No query reads results by eval name or
-- by judge model without their run (trends use (run_id, eval_name), the models of a run are grouped
-- within the run), and (run_id, status) is the start of (run_id, status, name, id), which serves its
-- counts and filters: these three are dropped.

-- DropIndex
DROP INDEX "eval_results_eval_name_created_at_idx";

-- DropIndex
DROP INDEX "eval_results_judge_model_run_id_idx";

-- DropIndex
DROP INDEX "eval_results_run_id_status_idx";

-- Each result document (about 4 KB of JSON) is compressed as it is stored. With pglz, the default,
-- that took about as long as inserting the row itself, lz4 about a sixth of it (Postgres 15).
-- Only new values are compressed with it, older ones read as before. PGlite is built without lz4
-- and keeps pglz: the server lists what it supports in default_toast_compression. The function
-- holds one statement without a semicolon, as the migration runner splits scripts on them.
CREATE FUNCTION "rubric_studio_data_lz4"() RETURNS void LANGUAGE sql AS 'ALTER TABLE "eval_results" ALTER COLUMN "data" SET COMPRESSION lz4';
SELECT "rubric_studio_data_lz4"() FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals);
DROP FUNCTION "rubric_studio_data_lz4"();
