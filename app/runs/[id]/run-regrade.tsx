import { RegradeSection } from "@/components/results/regrade-section";
import { PRICED_MODELS } from "@/lib/judge/pricing";
import { regradeViews } from "../_lib/load";

// The run page's regrade part (its own file, so the page keeps one line of it):
// the source of a regrade, and Re-grade with… for a finished run.

export async function RunRegrade({
  runId,
  status,
  regradeOf,
}: {
  runId: string;
  status: string;
  regradeOf: string | null;
}) {
  const views = await regradeViews();
  const [source, options, notes] = await Promise.all([
    regradeOf ? views.sourceOf(runId) : undefined,
    views.regradeOptions(runId),
    regradeOf ? views.regradeNotes(runId) : [],
  ]);
  if (!options) return null;
  // The run's own judges and candidate models first (an OpenAI model it generated with, say), then the priced ones.
  const models = [...new Set([...options.judgeModels, ...options.agentModels, ...PRICED_MODELS])];
  return (
    <RegradeSection
      runId={runId}
      finished={status !== "queued" && status !== "running"}
      {...(source
        ? {
            source: {
              id: source.id,
              createdAt: source.createdAt.toISOString(),
              version: source.versionNumber,
              judges: options.judgeModels,
            },
          }
        : {})}
      notes={notes}
      versions={options.versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() }))}
      runVersionId={options.runVersionId}
      models={models}
    />
  );
}
