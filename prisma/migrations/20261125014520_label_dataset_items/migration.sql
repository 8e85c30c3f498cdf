-- CreateTable
CREATE TABLE "label_dataset_items" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "label_id" UUID NOT NULL,
    "item" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "label_dataset_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "label_dataset_items_label_id_key" ON "label_dataset_items"("label_id");

-- CreateIndex
CREATE INDEX "label_dataset_items_suite_id_created_at_idx" ON "label_dataset_items"("suite_id", "created_at");

-- AddForeignKey
ALTER TABLE "label_dataset_items" ADD CONSTRAINT "label_dataset_items_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
