-- A criterion row kept the judge's reasoning and evidence a second time beside its result's
-- document (data.criteria), and nothing read them from here: a third of the bytes of a stored
-- result. The document keeps them.

-- AlterTable
ALTER TABLE "criterion_results" DROP COLUMN "evidence",
DROP COLUMN "reasoning";

-- A criterion graded by one judge is stored with its verdict's reasoning and evidence once, as the
-- criterion's (lib/engine/results/stored-verdicts-text.ts): a verdict without its reasoning has its
-- criterion's. rubric_studio_result(data) is the stored document with them put back, for a query
-- that hands documents on as they are (readStoredResult does the same in the engine). Rows stored
-- before (verdicts whole) come back unchanged. One statement without a semicolon inside, as the
-- migration runner splits scripts on them.
CREATE FUNCTION "rubric_studio_result"("data" jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT CASE WHEN jsonb_typeof("data"->''criteria'') = ''array'' AND EXISTS (SELECT FROM jsonb_array_elements("data"->''criteria'') c WHERE jsonb_typeof(c->''verdicts'') = ''array'' AND jsonb_array_length(c->''verdicts'') = 1 AND jsonb_typeof(c->''verdicts''->0->''reasoning'') IS DISTINCT FROM ''string'') THEN jsonb_set("data", ''{criteria}'', (SELECT jsonb_agg(CASE WHEN jsonb_typeof(c->''verdicts'') = ''array'' AND jsonb_array_length(c->''verdicts'') = 1 AND jsonb_typeof(c->''verdicts''->0->''reasoning'') IS DISTINCT FROM ''string'' THEN jsonb_set(c, ''{verdicts}'', jsonb_build_array(c->''verdicts''->0 || jsonb_build_object(''reasoning'', c->''reasoning'') || CASE WHEN c ? ''evidence'' THEN jsonb_build_object(''evidence'', c->''evidence'') ELSE ''{}'' END)) ELSE c END ORDER BY i) FROM jsonb_array_elements("data"->''criteria'') WITH ORDINALITY AS t(c, i))) ELSE "data" END';
