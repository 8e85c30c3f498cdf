-- The results table sorted by score, cost or latency (lib/store/result-cursor.ts) pages by keyset
-- over these: a page reads its 100 rows in order instead of sorting the whole run (at 200,000
-- results the last page by score took 292 ms on Postgres 15 without them). Each is paid on every
-- result written: README, "How big a run can be", has the write rate with and without them.

-- CreateIndex
CREATE INDEX "eval_results_run_id_score_id_idx" ON "eval_results"("run_id", "score", "id");

-- CreateIndex
CREATE INDEX "eval_results_run_id_cost_usd_id_idx" ON "eval_results"("run_id", "cost_usd", "id");

-- CreateIndex
CREATE INDEX "eval_results_run_id_latency_ms_id_idx" ON "eval_results"("run_id", "latency_ms", "id");
