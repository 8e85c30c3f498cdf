// A judge may quote with different spacing or line breaks than the candidate;
// that is still a verbatim span. Anything else (paraphrase, invention) is not.

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Whether `evidence` is a real, non-empty span of `candidate`, whitespace-normalised. */
export function evidenceOccurs(evidence: string | undefined, candidate: string): boolean {
  if (evidence === undefined) return false;
  const span = normalise(evidence);
  // Judges often wrap a quote in quotation marks; those are not part of the span.
  const unquoted = span.replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "").trim();
  if (unquoted.length === 0) return false;
  const haystack = normalise(candidate);
  return haystack.includes(span) || haystack.includes(unquoted);
}
