-- CreateTable
CREATE TABLE "run_batches" (
    "id" TEXT NOT NULL,
    "run_id" UUID NOT NULL,
    "custom_ids" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_batches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "run_batches_run_id_idx" ON "run_batches"("run_id");

-- AddForeignKey
ALTER TABLE "run_batches" ADD CONSTRAINT "run_batches_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
