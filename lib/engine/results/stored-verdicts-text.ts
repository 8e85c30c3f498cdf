import type { CriterionResult, EvalResult, VerdictRecord } from "./report";

// A criterion graded by one judge carries that judge's reasoning and evidence twice: as the
// criterion's and as its one verdict's. A judge's reasoning is most of a stored result, so the
// store keeps it once: `withoutRepeatedVerdictText` leaves the reasoning and evidence out of a
// lone verdict that says exactly what its criterion says, and `withVerdictText` puts them back on
// reading. A verdict always has its reasoning (VerdictRecord), so one without it is one stored
// this way; results stored before (verdicts whole) read as they are.

/** The result as the store keeps it: a lone verdict's reasoning and evidence left to its criterion. */
export function withoutRepeatedVerdictText(result: EvalResult): EvalResult {
  if (!result.criteria.some(repeatsItsVerdict)) return result;
  return {
    ...result,
    criteria: result.criteria.map((c) => {
      if (!repeatsItsVerdict(c)) return c;
      const { reasoning: _reasoning, evidence: _evidence, ...verdict } = c.verdicts[0]!;
      return { ...c, verdicts: [verdict as VerdictRecord] };
    }),
  };
}

function repeatsItsVerdict(c: CriterionResult): boolean {
  const only = c.verdicts.length === 1 ? c.verdicts[0]! : undefined;
  return (
    only !== undefined &&
    typeof only.reasoning === "string" &&
    only.reasoning === c.reasoning &&
    only.evidence === c.evidence
  );
}

/** A stored result with each verdict's reasoning and evidence, as it was graded. */
export function withVerdictText(result: EvalResult): EvalResult {
  const criteria = result.criteria as CriterionResult[] | undefined;
  if (!Array.isArray(criteria) || !criteria.some(lacksText)) return result;
  return {
    ...result,
    criteria: criteria.map((c) =>
      lacksText(c)
        ? {
            ...c,
            verdicts: [
              inStoredOrder({
                ...c.verdicts[0]!,
                reasoning: c.reasoning,
                ...(c.evidence !== undefined ? { evidence: c.evidence } : {}),
              }),
            ],
          }
        : c,
    ),
  };
}

function lacksText(c: CriterionResult): boolean {
  return (
    Array.isArray(c.verdicts) &&
    c.verdicts.length === 1 &&
    typeof c.verdicts[0]?.reasoning !== "string"
  );
}

/**
 * The keys in the order Postgres keeps a jsonb object's (shorter first, then by their bytes), so a
 * verdict given its text back serialises as one stored whole does (report RUN_ID's json output).
 */
function inStoredOrder<T extends object>(value: T): T {
  const keys = Object.keys(value).sort((a, b) =>
    a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(keys.map((k) => [k, value[k as keyof T]])) as T;
}
