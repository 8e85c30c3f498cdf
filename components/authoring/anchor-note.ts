// One wording and one order for an anchor's verdict, in the Anchors panel and
// inline in the editor: the label first, then the judge's score (as the
// calibration view's columns and its scatter's x and y read).

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export function anchorScores(anchor: { label: number; judged: number | null }): string {
  return `labelled ${fixed(anchor.label)} · judged ${fixed(anchor.judged)}`;
}
