import type { JudgeReading } from "./calibration-types";

// A jury's or panel's reading of one anchor or item: the mean it was judged
// at, then each judge's own score with its own reasoning, so no one judge's
// reasoning reads as the reason for the mean. Model text is rendered as text.

const fixed = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export function JudgeReadings({ judges, judged }: { judges: JudgeReading[]; judged: number | null }) {
  return (
    <div className="small" data-testid="judge-readings">
      <div className="muted" data-testid="judge-readings-summary">
        mean of {judges.length} judges: {fixed(judged)}
      </div>
      <ul className="judge-readings">
        {judges.map((j, i) => (
          <li key={`${j.judge}-${i}`} data-testid="judge-reading" data-judge={j.judge}>
            <strong>{j.judge}</strong> {fixed(j.score)}: <span className="muted anchor-reasoning">{j.reasoning}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
