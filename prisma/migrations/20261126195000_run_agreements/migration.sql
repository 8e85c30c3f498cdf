-- A finished run's judge-agreement figures (lib/store/run-agreement.ts), kept when it finishes, in a
-- table of their own: they can be megabytes, and runs.figures is read by every run page.

-- CreateTable
CREATE TABLE "run_agreements" (
    "run_id" UUID NOT NULL,
    "figures" JSONB NOT NULL,

    CONSTRAINT "run_agreements_pkey" PRIMARY KEY ("run_id")
);

-- AddForeignKey
ALTER TABLE "run_agreements" ADD CONSTRAINT "run_agreements_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
