// Splits a candidate into text segments, each tagged with the criteria whose
// cited evidence covers it, so the page can wrap those segments in <mark>
// elements. Text only: the candidate is never parsed as HTML. Matching
// follows the engine's rule (lib/engine/check-evidence.ts): whitespace may
// differ and surrounding quotation marks are not part of the span.

export interface EvidenceSource {
  /** Index of the criterion, shown as its marker. */
  index: number;
  evidence: string;
}

export interface Segment {
  text: string;
  /** Criteria (by index) whose evidence covers this segment; empty for plain text. */
  marks: number[];
}

function spanPattern(evidence: string): RegExp | undefined {
  const unquoted = evidence
    .trim()
    .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "")
    .trim();
  const words = unquoted.split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
}

/** Where each evidence span occurs in `text` (every occurrence), as [start, end) ranges. */
export function findEvidence(
  text: string,
  sources: EvidenceSource[],
): { start: number; end: number; index: number }[] {
  const ranges: { start: number; end: number; index: number }[] = [];
  for (const source of sources) {
    const pattern = spanPattern(source.evidence);
    if (!pattern) continue;
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0)
        ranges.push({
          start: match.index,
          end: match.index + match[0].length,
          index: source.index,
        });
    }
  }
  return ranges;
}

export function evidenceSegments(text: string, sources: EvidenceSource[]): Segment[] {
  const ranges = findEvidence(text, sources);
  const cuts = [...new Set([0, text.length, ...ranges.flatMap((r) => [r.start, r.end])])].sort(
    (a, b) => a - b,
  );
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    const marks = [
      ...new Set(ranges.filter((r) => r.start <= start && r.end >= end).map((r) => r.index)),
    ].sort((a, b) => a - b);
    const previous = segments.at(-1);
    // Adjacent segments with the same marks merge, so plain text stays one run.
    if (previous && previous.marks.join() === marks.join()) previous.text += text.slice(start, end);
    else segments.push({ text: text.slice(start, end), marks });
  }
  return segments;
}
