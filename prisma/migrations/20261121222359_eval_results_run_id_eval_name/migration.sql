-- CreateIndex
CREATE INDEX "eval_results_run_id_eval_name_idx" ON "eval_results"("run_id", "eval_name");
