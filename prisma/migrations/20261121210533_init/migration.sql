-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "suites" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "suites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suite_versions" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "content_hash" TEXT NOT NULL,
    "yaml" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suite_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "suite_version_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "started_by" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "total_cells" INTEGER NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "deferred" INTEGER NOT NULL DEFAULT 0,
    "judge_errors" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "judge_calls" INTEGER NOT NULL DEFAULT 0,
    "reused_calls" INTEGER NOT NULL DEFAULT 0,
    "saved_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cache_read_tokens" INTEGER NOT NULL DEFAULT 0,
    "cache_write_tokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_results" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "result_key" TEXT NOT NULL,
    "eval_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "cell_model" TEXT,
    "cell_prompt" INTEGER,
    "judge_model" TEXT,
    "status" TEXT NOT NULL,
    "vacuous" BOOLEAN NOT NULL DEFAULT false,
    "score" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION NOT NULL,
    "reason" TEXT NOT NULL,
    "note" TEXT,
    "cost_usd" DOUBLE PRECISION NOT NULL,
    "judge_calls" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "eval_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "criterion_results" (
    "id" UUID NOT NULL,
    "eval_result_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "passed" BOOLEAN,
    "threshold" DOUBLE PRECISION NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL,
    "required" BOOLEAN NOT NULL,
    "guard" BOOLEAN NOT NULL,
    "gates" TEXT[],
    "reasoning" TEXT NOT NULL,
    "evidence" TEXT,

    CONSTRAINT "criterion_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_calls" (
    "key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "model" TEXT NOT NULL,
    "template_version" TEXT NOT NULL,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cache_read_tokens" INTEGER NOT NULL DEFAULT 0,
    "cache_write_tokens" INTEGER NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION,
    "verdict" JSONB,
    "raw" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "judge_calls_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "run_calls" (
    "run_id" UUID NOT NULL,
    "call_key" TEXT NOT NULL,
    "reused" BOOLEAN NOT NULL,

    CONSTRAINT "run_calls_pkey" PRIMARY KEY ("run_id","call_key")
);

-- CreateTable
CREATE TABLE "baselines" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "baselines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_reports" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pairwise_comparisons" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "winner" TEXT NOT NULL,
    "position_biased" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pairwise_comparisons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "calibration_results" (
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "criterion" TEXT NOT NULL,
    "mae" DOUBLE PRECISION,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calibration_results_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "suites_name_key" ON "suites"("name");

-- CreateIndex
CREATE INDEX "suite_versions_suite_id_created_at_idx" ON "suite_versions"("suite_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "suite_versions_suite_id_content_hash_key" ON "suite_versions"("suite_id", "content_hash");

-- CreateIndex
CREATE INDEX "runs_suite_id_created_at_idx" ON "runs"("suite_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "runs_status_idx" ON "runs"("status");

-- CreateIndex
CREATE INDEX "eval_results_eval_name_created_at_idx" ON "eval_results"("eval_name", "created_at");

-- CreateIndex
CREATE INDEX "eval_results_run_id_status_idx" ON "eval_results"("run_id", "status");

-- CreateIndex
CREATE INDEX "eval_results_judge_model_run_id_idx" ON "eval_results"("judge_model", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "eval_results_run_id_result_key_key" ON "eval_results"("run_id", "result_key");

-- CreateIndex
CREATE INDEX "criterion_results_eval_result_id_idx" ON "criterion_results"("eval_result_id");

-- CreateIndex
CREATE INDEX "criterion_results_run_id_idx" ON "criterion_results"("run_id");

-- CreateIndex
CREATE INDEX "judge_calls_model_idx" ON "judge_calls"("model");

-- CreateIndex
CREATE INDEX "run_calls_call_key_idx" ON "run_calls"("call_key");

-- CreateIndex
CREATE UNIQUE INDEX "baselines_suite_id_name_key" ON "baselines"("suite_id", "name");

-- CreateIndex
CREATE INDEX "review_reports_run_id_idx" ON "review_reports"("run_id");

-- CreateIndex
CREATE INDEX "pairwise_comparisons_run_id_idx" ON "pairwise_comparisons"("run_id");

-- CreateIndex
CREATE INDEX "calibration_results_run_id_idx" ON "calibration_results"("run_id");

-- CreateIndex
CREATE INDEX "calibration_results_criterion_created_at_idx" ON "calibration_results"("criterion", "created_at");

-- AddForeignKey
ALTER TABLE "suite_versions" ADD CONSTRAINT "suite_versions_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_suite_version_id_fkey" FOREIGN KEY ("suite_version_id") REFERENCES "suite_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_results" ADD CONSTRAINT "eval_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "criterion_results" ADD CONSTRAINT "criterion_results_eval_result_id_fkey" FOREIGN KEY ("eval_result_id") REFERENCES "eval_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_calls" ADD CONSTRAINT "run_calls_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_calls" ADD CONSTRAINT "run_calls_call_key_fkey" FOREIGN KEY ("call_key") REFERENCES "judge_calls"("key") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "baselines" ADD CONSTRAINT "baselines_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "baselines" ADD CONSTRAINT "baselines_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pairwise_comparisons" ADD CONSTRAINT "pairwise_comparisons_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calibration_results" ADD CONSTRAINT "calibration_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
