import type { JudgeReading } from "./calibration-types";

// A jury's or panel's reading of one anchor or item: the mean it was judged
// at, then each judge's own score with its own reasoning, so no one judge's
// reasoning reads as the reason for the mean. Model text is rendered as text.

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

/**
 * "mean of 3 jurors" for a jury (one model sampled, labelled "model #1"...),
 * "mean of 2 models" for a panel, "mean of 6 jurors across 2 models" for a
 * panel of juries: the words the result pages use.
 */
export function readingsSummary(judges: JudgeReading[], judged: number | null): string {
  const models = new Set(judges.map((j) => j.judge.replace(/ #\d+$/, ""))).size;
  const n = judges.length;
  const who =
    models === 1
      ? `${n} jurors`
      : models === n
        ? `${n} models`
        : `${n} jurors across ${models} models`;
  return `mean of ${who}: ${fixed(judged)}`;
}

export function JudgeReadings({
  judges,
  judged,
}: {
  judges: JudgeReading[];
  judged: number | null;
}) {
  return (
    <div className="small" data-testid="judge-readings">
      <div className="muted" data-testid="judge-readings-summary">
        {readingsSummary(judges, judged)}
      </div>
      <ul className="judge-readings">
        {judges.map((j, i) => (
          <li key={`${j.judge}-${i}`} data-testid="judge-reading" data-judge={j.judge}>
            <strong>{j.judge}</strong> {fixed(j.score)}:{" "}
            <span className="muted anchor-reasoning">{j.reasoning}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
