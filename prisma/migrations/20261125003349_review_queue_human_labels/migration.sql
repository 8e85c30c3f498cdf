-- CreateTable
CREATE TABLE "review_items" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "result_key" TEXT NOT NULL,
    "eval_name" TEXT NOT NULL,
    "criterion" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'open',
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "human_labels" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "suite_version_id" UUID NOT NULL,
    "review_item_id" UUID,
    "run_id" UUID,
    "result_key" TEXT NOT NULL,
    "eval_name" TEXT NOT NULL,
    "criterion" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "candidate" TEXT NOT NULL,
    "scale" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "human_labels_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "review_items_suite_id_state_created_at_idx" ON "review_items"("suite_id", "state", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "review_items_run_id_result_key_criterion_reason_key" ON "review_items"("run_id", "result_key", "criterion", "reason");

-- CreateIndex
CREATE INDEX "human_labels_suite_id_eval_name_criterion_idx" ON "human_labels"("suite_id", "eval_name", "criterion");

-- CreateIndex
CREATE INDEX "human_labels_review_item_id_idx" ON "human_labels"("review_item_id");

-- AddForeignKey
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "human_labels" ADD CONSTRAINT "human_labels_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "human_labels" ADD CONSTRAINT "human_labels_review_item_id_fkey" FOREIGN KEY ("review_item_id") REFERENCES "review_items"("id") ON DELETE SET NULL ON UPDATE CASCADE;
